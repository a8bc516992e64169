import module from 'node:module';

/**
 * Turns on Node's module compile cache (Node 22.1 and later): compiled code is kept in the
 * system's temporary folder and reused by the next start of the command. An older Node has no
 * such cache and runs as before.
 */
export function enableCompileCache(): void {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}
