import type { SkillhostError } from '../node/index.js';
import type { CliStream } from './io.js';
import { printable } from './printable.js';

/** Exit code of a step the policy, the checks or the user refused, or that nobody could confirm. */
export const REFUSED = 3;

/** Codes that mean the skill named is not there to use (exit 1), rather than refused (exit 3). */
const MISSING_SKILL = new Set<string>(['SKILL_NOT_FOUND', 'SKILL_UNAVAILABLE']);

/**
 * The exit code of a coded error of a command on one skill (`run`, `sandbox explain`,
 * `approve`): 1 when the skill cannot be found or used, 3 for every other refusal.
 */
export function skillErrorExitCode(error: SkillhostError): number {
  return MISSING_SKILL.has(error.code) ? 1 : REFUSED;
}

/** Prints `skillhost: error CODE: message` on `stderr` and answers the exit code. */
export function reportSkillError(stderr: CliStream, error: SkillhostError): number {
  stderr.write(`skillhost: error ${error.code}: ${printable(error.message)}\n`);
  return skillErrorExitCode(error);
}
