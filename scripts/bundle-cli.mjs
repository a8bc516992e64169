// Bundles the built command line after `tsc`: dist/cli/bin.js, as tsc wrote it, becomes one entry
// file whose commands are chunks loaded on first use (dist/cli/chunks/). A cold Node process pays
// for every module it resolves and reads, and the library's barrels (index, internal, node) would
// make a command load ~220 of them where it uses a quarter: the bundler keeps only what each
// command reaches. Packages stay external (installed as dependencies, loaded as before); the
// library entries (skillhost, skillhost/node, the adapters) stay tsc's files, and tsc's other files
// of dist/cli/ are removed.
//
// Module paths the code computes from `import.meta.url` keep working: a chunk sits two folders
// below dist/, as dist/cli/host/*.js does (see binOfThisPackage in src/node/cli-agents.ts).
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli');
const chunks = join(cli, 'chunks');

const bundle = await rolldown({
  input: { bin: join(cli, 'bin.js') },
  platform: 'node',
  // Every package and built-in module is loaded from node_modules at run time, as before.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id),
  logLevel: 'warn',
});
// The chunks of an earlier build would otherwise stay next to the new ones.
rmSync(chunks, { recursive: true, force: true });
await bundle.write({
  dir: cli,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
});
await bundle.close();
if (readdirSync(chunks).length === 0) throw new Error('bundle-cli: no chunks written');
// tsc's own files of the command line are in the bundle now; nothing loads them.
for (const name of readdirSync(cli))
  if (name !== 'bin.js' && name !== 'chunks') rmSync(join(cli, name), { recursive: true });
