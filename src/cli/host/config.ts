import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SkillhostError } from '../../errors.js';
import type { StoredApproval, TrustedSkill, UserConfig } from '../io.js';

/** Reads the user config; a missing file is an empty config, a malformed one an error naming it. */
export function readUserConfig(path: string): UserConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { trustedProjects: [] };
    throw new SkillhostError('CONFIG_INVALID', `Cannot read the user config ${path}`, {
      cause: error,
      details: { path },
    });
  }
  try {
    const value = JSON.parse(text) as {
      trustedProjects?: unknown;
      approvals?: unknown;
      disabledSkills?: unknown;
      trustedSkills?: unknown;
    };
    const trusted = value.trustedProjects ?? [];
    if (
      !Array.isArray(trusted) ||
      !trusted.every((item) => typeof item === 'string' && item.startsWith('/'))
    ) {
      throw new Error('trustedProjects must be a list of absolute paths');
    }
    const approvals = value.approvals ?? [];
    const isApproval = (item: unknown): item is StoredApproval =>
      typeof item === 'object' &&
      item !== null &&
      ['key', 'skill', 'script', 'contentHash'].every(
        (field) => typeof (item as Record<string, unknown>)[field] === 'string',
      );
    if (!Array.isArray(approvals) || !approvals.every(isApproval)) {
      throw new Error('approvals must be a list of {key, skill, script, contentHash}');
    }
    const disabled = value.disabledSkills ?? [];
    if (!Array.isArray(disabled) || !disabled.every((item) => typeof item === 'string'))
      throw new Error('disabledSkills must be a list of skill names');
    const skills = value.trustedSkills ?? [];
    const isTrustedSkill = (item: unknown): item is TrustedSkill =>
      typeof item === 'object' &&
      item !== null &&
      ['skill', 'directory', 'contentHash'].every(
        (field) => typeof (item as Record<string, unknown>)[field] === 'string',
      );
    if (!Array.isArray(skills) || !skills.every(isTrustedSkill))
      throw new Error('trustedSkills must be a list of {skill, directory, contentHash}');
    return {
      trustedProjects: trusted as string[],
      approvals,
      ...(disabled.length === 0 ? {} : { disabledSkills: disabled as string[] }),
      ...(skills.length === 0 ? {} : { trustedSkills: skills }),
    };
  } catch (error) {
    throw new SkillhostError(
      'CONFIG_INVALID',
      `The user config ${path} is not valid: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error, details: { path } },
    );
  }
}

/** Writes the user config atomically (temporary file, then rename), readable only by the user. */
export function writeUserConfig(path: string, config: UserConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
