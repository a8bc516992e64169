import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * The command line's own code cache, for a Node without `module.enableCompileCache` (before
 * 22.1): the bundled chunks are compiled with the V8 code that an earlier start left, which
 * spares most of a start's compiling (`validate` of one skill: 595 M instructions without, 551 M
 * with). Only this package's chunks are loaded this way; everything else is `require`d as usual.
 */

/** What a chunk calls for `import()` of a package (see scripts/bundle-cli.mjs). */
export type Importer = (specifier: string) => Promise<unknown>;

const WRAPPER_START =
  '(function (exports, require, module, __filename, __dirname, __skillhostImport) {';
const WRAPPER_END = '\n})';

/** A folder this user alone owns and can write: not a link, not open to others. */
function ownFolder(path: string): boolean {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    const status = lstatSync(path);
    return (
      status.isDirectory() &&
      (typeof process.getuid !== 'function' || status.uid === process.getuid()) &&
      (status.mode & 0o022) === 0
    );
  } catch {
    return false;
  }
}

/**
 * Where compiled code is kept: below `NODE_COMPILE_CACHE` when set, else in a folder of the
 * user's own in the system's temporary folder (as Node keeps its cache), one per Node version,
 * architecture and young-generation setting (`prepareCliProcess`: V8 refuses a cache made under
 * other settings; other flags of a run are rare, and V8's refusal makes the next start write the
 * code anew). Undefined when `NODE_DISABLE_COMPILE_CACHE` is set, or when the folder is not the
 * user's alone (V8 trusts what a code cache holds).
 */
export function codeCacheFolder(env: NodeJS.ProcessEnv, tuned: boolean): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined && env.NODE_DISABLE_COMPILE_CACHE !== '')
    return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const base =
    env.NODE_COMPILE_CACHE !== undefined && env.NODE_COMPILE_CACHE !== ''
      ? join(resolve(env.NODE_COMPILE_CACHE), 'skillhost')
      : join(tmpdir(), `skillhost-code-cache-${uid}`);
  if (!ownFolder(base)) return undefined;
  // Inside a folder only this user can write, nobody else made the one below.
  const folder = join(base, `${process.version}-${process.arch}-${tuned ? 'tuned' : 'plain'}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return folder;
}

/**
 * Loads the chunk `entry` and the chunks it requires (files of its folder) with a code cache in
 * `folder`: each is compiled with the code kept there when V8 accepts it, and when it had none or
 * V8 refused it, its code (the functions that ran included) is written there as the process
 * exits (`atExit`). Without a folder, nothing is read or written. Other modules are required as
 * usual; a chunk calls `importer` for `import()` of a package.
 */
export function requireWithCodeCache(
  entry: URL,
  folder: string | undefined,
  importer: Importer,
  atExit: (save: () => number) => void = (save) => process.once('exit', save),
): unknown {
  const start = fileURLToPath(entry);
  const chunks = dirname(start);
  const loaded = new Map<string, { exports: Record<string, unknown> }>();
  const compiled: { script: Script; file: string; identity: string }[] = [];
  const load = (file: string): unknown => {
    const known = loaded.get(file);
    if (known !== undefined) return known.exports;
    const record = { exports: {} as Record<string, unknown> };
    loaded.set(file, record);
    try {
      const cacheFile = folder === undefined ? undefined : join(folder, basename(file));
      // V8 checks a cache against the source's length only: the cache names the file it was
      // made from (size, time, inode), and a file rewritten since (a new build) is compiled anew.
      let identity = '';
      let cachedData: Buffer | undefined;
      if (cacheFile !== undefined) {
        const status = statSync(file);
        identity = `${status.size}:${status.mtimeMs}:${status.ino}\n`;
        try {
          const kept = readFileSync(cacheFile);
          if (kept.toString('latin1', 0, identity.length) === identity)
            cachedData = kept.subarray(identity.length);
        } catch {
          cachedData = undefined;
        }
      }
      const source = readFileSync(file, 'utf8');
      const script = new Script(`${WRAPPER_START}${source}${WRAPPER_END}`, {
        filename: file,
        ...(cachedData === undefined ? {} : { cachedData }),
      });
      if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected))
        compiled.push({ script, file: cacheFile, identity });
      const directory = dirname(file);
      const required = createRequire(file);
      const localRequire = (id: string): unknown => {
        if (id.startsWith('./') || id.startsWith('../')) {
          const target = resolve(directory, id);
          // A chunk the bin itself required (Node's loader has it) is not loaded twice.
          if (dirname(target) === chunks) return required.cache[target]?.exports ?? load(target);
        }
        return required(id);
      };
      const run = script.runInThisContext() as (...values: unknown[]) => void;
      run.call(record.exports, record.exports, localRequire, record, file, directory, importer);
    } catch (error) {
      loaded.delete(file);
      throw error;
    }
    return record.exports;
  };
  if (folder !== undefined) {
    // Written as the process exits, with the code of every function that ran. Answers how many.
    atExit(() => {
      let written = 0;
      for (const { script, file, identity } of compiled.splice(0)) {
        try {
          const temporary = `${file}.${process.pid}.tmp`;
          const code = script.createCachedData();
          writeFileSync(temporary, Buffer.concat([Buffer.from(identity, 'latin1'), code]), {
            mode: 0o600,
          });
          renameSync(temporary, file);
          written += 1;
        } catch {
          // A cache that cannot be written is a cache missed next time, nothing more.
        }
      }
      return written;
    });
  }
  return load(start);
}
