import module from 'node:module';

/**
 * Turns on Node's module compile cache (Node 22.1 and later): compiled code is kept in the
 * system's temporary folder and reused by the next start of the command. An older Node has no
 * such cache and runs as before.
 */
export function enableCompileCache(): void {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
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
