// Bundles the built command line after `tsc`: dist/cli/bin.js, as tsc wrote it, becomes one entry
// file whose commands are chunks loaded on first use (dist/cli/chunks/). A cold Node process pays
// for every module it resolves and reads, and the library's barrels (index, internal, node) would
// make a command load ~220 of them where it uses a quarter: the bundler keeps only what each
// command reaches. The packages on the paths that must start fast are bundled too: the MCP SDK
// with what it imports (zod, Hono for HTTP: about 110 modules before `initialize` can be answered
// over stdio), the watcher and the stemmer.
// Every other package stays external (installed as a dependency, loaded as before). The library
// entries (skillhost, skillhost/node, the adapters) stay tsc's files; tsc's other files of
// dist/cli/ are removed.
//
// The bundle is CommonJS (dist/cli/package.json says so for bin.js and the helper's program; the
// chunks are `.cjs`): an ES module entry makes Node start its ES module loader, which costs a
// start 10-15 ms that `require` does not (measured on Node 20: `validate` of one skill 616 M
// instructions as ES modules, 595 M as CommonJS). Packages stay ES modules where they are: the
// externals are loaded with `import()`, the library's own files with `require` (Node 20.19 and
// later load an ES module that way).
//
// Module paths the code computes from `import.meta.url` keep working: a chunk sits two folders
// below dist/, as dist/cli/host/*.js does, so the node modules that src/cli/host/deps.ts loads on
// first use (the sandbox runner, the session store) are found in dist/node/; src/node/self.ts
// finds the bin from either layout.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli');
const chunks = join(cli, 'chunks');
// Packages bundled into the command line; built-in modules and every other package stay imports.
const BUNDLED =
  /^(?:@modelcontextprotocol\/|@hono\/node-server(?:\/|$)|hono(?:\/|$)|zod(?:\/|$)|chokidar(?:\/|$)|readdirp(?:\/|$)|stemmer$)/;

// The MCP SDK's `_shims` entry loads Ajv for a check a starting server never makes; the command
// line's own shim (src/cli/host/sdk-shims.ts) loads the SDK's validator when it is first used.
const SDK_SHIMS = '@modelcontextprotocol/server/_shims';

function lazySdkValidator() {
  return {
    name: 'lazy-sdk-validator',
    resolveId(id) {
      return id === SDK_SHIMS ? join(cli, 'host', 'sdk-shims.js') : null;
    },
  };
}

// A chunk that the command line's own loader compiles with a code cache (Node 20: see
// src/cli/host/code-cache.ts) cannot call `import()`: a `vm.Script` has no loader for it. Each
// `import("package")` left (the bundle's own imports are `require`s) calls the loader's
// `__skillhostImport`, a parameter of the chunk's wrapper; a chunk that Node loads itself (Node 22,
// the tree helper's thread) has no such parameter and imports as before.
const PACKAGE_IMPORT = /\bimport\((["'])([^"'\\\s]+)\1\)/g;
const IMPORTER = '__skillhostImport';

function importsThroughLoader() {
  return {
    name: 'imports-through-loader',
    renderChunk(code, chunk) {
      if (!chunk.fileName.startsWith('chunks/')) return null;
      let found = false;
      const replaced = code.replace(PACKAGE_IMPORT, (_, quote, specifier) => {
        found = true;
        return `${IMPORTER}(${quote}${specifier}${quote})`;
      });
      if (!found) return null;
      const fallback = `var ${IMPORTER} = typeof ${IMPORTER} === "function" ? ${IMPORTER} : (specifier) => import(specifier);\n`;
      const directive = /^(?:#![^\n]*\n)?(?:\s*"use strict";\n)?/.exec(replaced)[0];
      return `${directive}${fallback}${replaced.slice(directive.length)}`;
    },
  };
}

const bundle = await rolldown({
  // The programs of the helper threads (a tree check's, src/node/walk-helper.ts; a read ahead's,
  // src/node/read-ahead.ts) are imported by URL from the chunk next to them: entries of their
  // own, at dist/cli/chunks/walk-worker.js and read-ahead-worker.js.
  input: {
    bin: join(cli, 'bin.js'),
    'chunks/main': join(cli, 'main.js'),
    'chunks/walk-worker': join(root, 'dist', 'node', 'walk-worker.js'),
    'chunks/read-ahead-worker': join(root, 'dist', 'node', 'read-ahead-worker.js'),
  },
  preserveEntrySignatures: 'exports-only',
  platform: 'node',
  plugins: [lazySdkValidator(), importsThroughLoader()],
  // Node 20.19 runs every syntax tsc emits: nothing is rewritten, and no helper package is imported
  // (a tagged template holding `</script` would be rewritten with one: src/cli/ui/html.ts has none).
  transform: { target: 'esnext' },
  external: (id) =>
    !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id) && !BUNDLED.test(id),
  logLevel: 'warn',
});
// The chunks of an earlier build would otherwise stay next to the new ones.
rmSync(chunks, { recursive: true, force: true });
const { output } = await bundle.write({
  dir: cli,
  format: 'cjs',
  // The sources are ES modules, which are strict: so is every chunk.
  strict: true,
  entryFileNames: '[name].js',
  // `.cjs`: Node knows the format from the name, without looking up a package.json per chunk.
  chunkFileNames: 'chunks/[name]-[hash].cjs',
  // What Node reads and V8 scans at every start: ASCII only (other characters as escapes; V8
  // keeps a source with one character beyond Latin-1 as two bytes a character, and scans it
  // more slowly), and no documentation comments (the library's files keep theirs; licence
  // notices and the bundler's annotations stay).
  charset: 'ascii',
  comments: { legal: true, annotation: true, jsdoc: false },
});
await bundle.close();
// Every import left is a built-in module or one of this package's dependencies.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
for (const chunk of output)
  for (const specifier of chunk.type === 'chunk'
    ? [...chunk.imports, ...chunk.dynamicImports]
    : []) {
    // The bin runs the command line: a chunk that required it would run it again.
    if (specifier === 'bin.js') throw new Error(`bundle-cli: ${chunk.fileName} requires the bin`);
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    if (
      !specifier.startsWith('chunks/') &&
      !specifier.startsWith('node:') &&
      !dependencies.has(name)
    )
      throw new Error(`bundle-cli: ${chunk.fileName} imports ${specifier}, not a dependency`);
  }
if (readdirSync(chunks).length === 0) throw new Error('bundle-cli: no chunks written');
for (const program of ['walk-worker.js', 'read-ahead-worker.js'])
  if (!readdirSync(chunks).includes(program))
    throw new Error(`bundle-cli: the helper program chunks/${program} was not written`);
// tsc's own files of the command line are in the bundle now; nothing loads them.
for (const name of readdirSync(cli))
  if (name !== 'bin.js' && name !== 'chunks') rmSync(join(cli, name), { recursive: true });
// bin.js and the helper programs in chunks/ are CommonJS in a package of ES modules.
writeFileSync(join(cli, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
