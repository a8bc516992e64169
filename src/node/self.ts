import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built bin of this installation: dist/cli/bin.js. This module runs either as tsc wrote it
 * (dist/node/self.js, for the library) or inside a chunk of the bundled command line
 * (dist/cli/chunks/*.js, see scripts/bundle-cli.mjs); both sit one folder below dist/.
 */
export function skillhostBin(): string {
  const folder = dirname(fileURLToPath(import.meta.url));
  const dist = basename(folder) === 'chunks' ? dirname(dirname(folder)) : dirname(folder);
  return join(dist, 'cli', 'bin.js');
}
