import { existsSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';

/**
 * Turns on Node's module compile cache (Node 22.1 and later): compiled code is kept in the
 * system's temporary folder and reused by the next start of the command. True when Node keeps
 * it; an older Node has no such cache (see code-cache.ts for the command line's own).
 */
export function enableCompileCache(): boolean {
  const enable = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (enable === undefined) return false;
  enable();
  return true;
}

/** The exit code of a Unix command that a closed pipe stopped (128 + SIGPIPE). */
export const BROKEN_PIPE_EXIT = 141;

/**
 * A reader that stops early (`skillhost list --json | head`) closes the pipe under the command.
 * The command then stops at once and quietly, as a Unix tool stopped by SIGPIPE does (exit 141),
 * rather than with a stack trace; any other error on a standard stream is still thrown.
 */
export function stopOnBrokenPipe(
  stream: { on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown },
  exit: (code: number) => never = process.exit,
): void {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') exit(BROKEN_PIPE_EXIT);
    throw error;
  });
}

/**
 * Tunes this process for a short command over possibly many files: V8's young generation is
 * kept from growing. A command that keeps ten thousand skills would otherwise let it grow to
 * 32 MB, which is most of its peak memory; kept small, the peak stays near the I/O floor's.
 * Only the CLI calls this, before any of its code is compiled (a code cache records V8's
 * settings): a library never changes its host's V8 settings. A long-running server
 * (`skillhost mcp`) is left alone: there, a grown young generation saves time on every call;
 * so is `--version`, which reads no file. True when the setting was made.
 */
export function prepareCliProcess(argv: readonly string[] = []): boolean {
  if (argv[0] === 'mcp' || argv[0] === '--version' || argv[0] === '-V' || fewSkills(argv))
    return false;
  // Loaded here, not with this module: a command given a few skills does without it.
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  // Told to helper threads (src/node/helper-thread.ts): making a thread's heap undoes the setting.
  (globalThis as Record<symbol, unknown>)[Symbol.for('skillhost.smallYoungGeneration')] = true;
  return true;
}

/**
 * Whether `validate` or `to-prompt` is given skill directories and nothing else: a job of a
 * few skills, which keeps no young generation busy (and starts a few milliseconds sooner
 * without loading V8's settings). Anything else (a folder of skills, a file, an option's
 * value) counts as a large job.
 */
export function fewSkills(argv: readonly string[]): boolean {
  if (argv[0] !== 'validate' && argv[0] !== 'to-prompt') return false;
  const paths = argv.slice(1).filter((argument) => !argument.startsWith('-'));
  return (
    paths.length > 0 &&
    paths.length <= 16 &&
    paths.every((path) => existsSync(join(path, 'SKILL.md')) || existsSync(join(path, 'skill.md')))
  );
}
