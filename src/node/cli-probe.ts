import { spawn } from 'node:child_process';
import { SkillhostError } from '../core.js';
import type { CliAgentVersion } from '../internal.js';

/**
 * The capability probe of a command-line agent: its `--version`, run once per driver, compared
 * with the oldest version skillhost drives. A missing program and an old one each get a coded
 * message saying what to do.
 */

export interface ProbeSpec {
  /** What the agent is called in messages. */
  readonly label: string;
  readonly command: string;
  /** Arguments before `--version` (a script for node, say). */
  readonly prefix?: readonly string[];
  readonly minimum: string;
  /** How to install or update it. */
  readonly installHint: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeoutMs?: number;
}

/** What to use instead of a command-line agent. */
export const API_ALTERNATIVE =
  'or run the agent on a model API instead: --provider anthropic (ANTHROPIC_API_KEY), openai (OPENAI_API_KEY) or openai-compatible (--base-url of a local server)';

/** The version in a `--version` line: `2.1.332 (Claude Code)`, `0.61.0`, `2026.01.12-abc1234`. */
export function parseVersion(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)(?:[-+][0-9A-Za-z.-]+)?\b/.exec(output)?.[1];
}

/** Compares dotted versions numerically: negative when `a` is older. */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function run(
  spec: ProbeSpec,
): Promise<{ code: number | null; output: string; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    let output = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(spec.command, [...(spec.prefix ?? []), '--version'], {
        cwd: spec.cwd,
        env: { ...spec.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ code: null, output: '', error: error as NodeJS.ErrnoException });
      return;
    }
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutMs ?? 15_000);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, output, error });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Runs the probe; throws `CLI_AGENT_NOT_INSTALLED` or `CLI_AGENT_VERSION_UNSUPPORTED`. */
export async function probeCliAgent(spec: ProbeSpec): Promise<CliAgentVersion> {
  const result = await run(spec);
  if (result.error !== undefined) {
    const missing = result.error.code === 'ENOENT' || result.error.code === 'EACCES';
    throw new SkillhostError(
      'CLI_AGENT_NOT_INSTALLED',
      `${spec.label} is not installed here (${missing ? `${spec.command} was not found` : result.error.message}): ${spec.installHint}, ${API_ALTERNATIVE}`,
    );
  }
  const version = parseVersion(result.output);
  if (result.code !== 0 || version === undefined)
    throw new SkillhostError(
      'CLI_AGENT_VERSION_UNSUPPORTED',
      `${spec.label} did not say its version (${spec.command} --version exited ${result.code ?? 'on a signal'}: ${result.output.trim().slice(-200) || 'no output'}); skillhost needs ${spec.minimum} or later: ${spec.installHint}`,
    );
  if (compareVersions(version, spec.minimum) < 0)
    throw new SkillhostError(
      'CLI_AGENT_VERSION_UNSUPPORTED',
      `${spec.label} ${version} is older than ${spec.minimum}, the oldest skillhost can drive: ${spec.installHint}`,
    );
  return { version, minimum: spec.minimum };
}

/** A probe run at most once: later calls get the same answer (or the same error). */
export function probeOnce(probe: () => Promise<CliAgentVersion>): () => Promise<CliAgentVersion> {
  let result: Promise<CliAgentVersion> | undefined;
  return () => {
    result ??= probe();
    return result;
  };
}
