import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built bin (npm test builds it first). */
export const bin = join(root, 'dist', 'cli', 'bin.js');

/** Runs examples/main-job.mjs as `npm start` does, with nothing of this environment but PATH. */
export function runMainJob() {
  return spawnSync(process.execPath, [join(root, 'examples', 'main-job.mjs')], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeout: 60_000,
  });
}

/** Runs the built bin on a real pseudo-terminal (util-linux `script`), typing `typed`. */
export function onTerminal(argv: readonly string[], typed: string, home: string) {
  const command = [process.execPath, bin, ...argv].map((word) => `'${word}'`).join(' ');
  return spawnSync('script', ['-qec', command, '/dev/null'], {
    input: typed,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: join(home, '.skillhost') },
    timeout: 30_000,
  });
}
