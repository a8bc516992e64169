import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeCacheFolder, requireWithCodeCache } from '../../src/cli/host/code-cache.js';
import { bin } from '../helpers/built.js';
import { tempDir, writeSkill } from '../helpers/temp.js';

/** Two chunks as the bundle writes them: the entry requires the other, which imports a package. */
function writeChunks(root: string, answer = 42): string {
  const chunks = join(root, 'chunks');
  mkdirSync(chunks, { recursive: true });
  writeFileSync(
    join(chunks, 'main.js'),
    `"use strict";\nconst other = require("./other-abc.cjs");\nconst path = require("node:path");\nexports.answer = () => other.value + path.sep.length - 1;\nexports.load = (name) => other.load(name);\n`,
  );
  writeFileSync(
    join(chunks, 'other-abc.cjs'),
    `"use strict";\nvar __skillhostImport = typeof __skillhostImport === "function" ? __skillhostImport : (specifier) => import(specifier);\nexports.value = ${answer};\nexports.load = (name) => __skillhostImport(name);\n`,
  );
  return join(chunks, 'main.js');
}

interface Loaded {
  answer(): number;
  load(name: string): Promise<unknown>;
}

function load(entry: string, folder: string | undefined, imported: string[] = []) {
  let save: (() => number) | undefined;
  const exports = requireWithCodeCache(
    pathToFileURL(entry),
    folder,
    async (specifier) => {
      imported.push(specifier);
      return { specifier };
    },
    (given) => {
      save = given;
    },
  ) as Loaded;
  return { exports, save: () => save?.() ?? -1 };
}

describe("the command line's own code cache (Node before 22.1)", () => {
  it('loads chunks, hands import() to the importer, and keeps their code for the next start', async () => {
    const root = tempDir();
    const entry = writeChunks(root);
    const folder = join(root, 'cache');
    mkdirSync(folder);
    const imported: string[] = [];
    const first = load(entry, folder, imported);
    expect(first.exports.answer()).toBe(42);
    await expect(first.exports.load('some-package')).resolves.toEqual({
      specifier: 'some-package',
    });
    expect(imported).toEqual(['some-package']);
    expect(first.save()).toBe(2);
    expect(readdirSync(folder).sort()).toEqual(['main.js', 'other-abc.cjs']);
    // Each kept code names the file it was made from.
    const kept = readFileSync(join(folder, 'main.js'));
    expect(kept.toString('latin1').split('\n')[0]).toMatch(/^\d+:[\d.]+:\d+$/);
    // The next load takes it (in one process, V8's own memory answers first: the starts below,
    // each a process, show that V8 takes the kept code): nothing to write.
    const second = load(entry, folder);
    expect(second.exports.answer()).toBe(42);
    expect(second.save()).toBe(0);
  });

  it('compiles a rewritten chunk anew', () => {
    const root = tempDir();
    const entry = writeChunks(root, 42);
    const folder = join(root, 'cache');
    mkdirSync(folder);
    expect(load(entry, folder).save()).toBe(2);
    // Same length, other content (V8 alone would take the old code): the file's identity differs.
    const other = join(root, 'chunks', 'other-abc.cjs');
    writeFileSync(other, readFileSync(other, 'utf8').replace('= 42;', '= 17;'));
    const rebuilt = load(entry, folder);
    expect(rebuilt.exports.answer()).toBe(17);
    expect(rebuilt.save()).toBe(1);
  });

  it('reads and writes nothing without a folder; a chunk that throws is not kept half-loaded', () => {
    const root = tempDir();
    const entry = writeChunks(root);
    expect(load(entry, undefined).exports.answer()).toBe(42);
    writeFileSync(
      join(root, 'chunks', 'other-abc.cjs'),
      '"use strict";\nthrow new Error("boom");\n',
    );
    expect(() => load(entry, undefined)).toThrow('boom');
  });

  it('takes a chunk that Node has loaded already, rather than loading it a second time', () => {
    const root = tempDir();
    const entry = writeChunks(root);
    // The bin requires its shared chunk through Node before the loader starts.
    const byNode = module.createRequire(entry)('./other-abc.cjs') as { value: number };
    byNode.value = 99;
    expect(load(entry, undefined).exports.answer()).toBe(99);
  });

  it('keeps its code only in a folder of the user alone', () => {
    const root = tempDir();
    expect(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1' }, false)).toBeUndefined();
    const base = join(root, 'node-cache');
    const folder = codeCacheFolder({ NODE_COMPILE_CACHE: base }, false);
    expect(folder?.startsWith(join(base, 'skillhost', process.version))).toBe(true);
    // Other V8 settings, another folder: V8 refuses a cache made under other settings.
    expect(codeCacheFolder({ NODE_COMPILE_CACHE: base }, true)).not.toBe(folder);
    // Writable by others, or a link: not used.
    const open = join(root, 'open');
    mkdirSync(join(open, 'skillhost'), { recursive: true });
    chmodSync(join(open, 'skillhost'), 0o777);
    expect(codeCacheFolder({ NODE_COMPILE_CACHE: open }, false)).toBeUndefined();
    const linked = join(root, 'linked');
    mkdirSync(linked);
    mkdirSync(join(root, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(root, 'elsewhere'), join(linked, 'skillhost'));
    expect(codeCacheFolder({ NODE_COMPILE_CACHE: linked }, false)).toBeUndefined();
  });

  it('makes the built command line start from kept code, and take a broken cache in its stride', () => {
    const root = tempDir();
    writeSkill(root, 'one');
    const cache = join(root, 'cache');
    const run = () =>
      spawnSync(process.execPath, [bin, 'validate', join(root, 'one')], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          SKILLHOST_HOME: join(root, 'home'),
          NODE_COMPILE_CACHE: cache,
        },
      });
    const files = (): Map<string, number> => {
      const found = new Map<string, number>();
      const visit = (folder: string) => {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) visit(path);
          else found.set(path, statSync(path).mtimeMs);
        }
      };
      visit(cache);
      return found;
    };
    expect(run().stdout).toContain('valid');
    const first = files();
    expect(first.size).toBeGreaterThan(3);
    if ((module as { enableCompileCache?: unknown }).enableCompileCache !== undefined) return;
    // Node 20: the command line's own cache, one file a chunk, taken as it is by the next start.
    expect([...first.keys()].every((path) => path.includes(join(cache, 'skillhost')))).toBe(true);
    expect(run().stdout).toContain('valid');
    expect(files()).toEqual(first);
    // A kept code spoilt after its header: V8 refuses it, the command runs, the code is rewritten.
    const main = [...first.keys()].find((path) => path.endsWith('/main.js')) as string;
    const header = readFileSync(main).toString('latin1').split('\n')[0];
    writeFileSync(main, `${header}\n${'x'.repeat(200)}`);
    const spoilt = statSync(main).size;
    const again = run();
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('valid');
    expect(statSync(main).size).not.toBe(spoilt);
  });
});
