import { accessSync, constants, lstatSync, type Stats, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ScriptInterpreter } from '../deps.js';

/**
 * node:child_process, loaded on the first script run or sandbox probe: every other command
 * (validate, list, ...) loads the sandbox through the node entry and never spawns anything.
 */
const require = createRequire(import.meta.url);
export const childProcess = (): typeof import('node:child_process') =>
  require('node:child_process');

/** Where interpreters and helpers are looked up: system folders only, never a user's shims. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The only host folders a sandboxed script sees, read-only: the system's programs, libraries and
 * configuration. Homes, /tmp, /var, /srv, /mnt, /root and everything else are simply not there.
 */
export const SYSTEM_FOLDERS = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc'];

/** The status of a path itself (a link is not followed), or undefined when there is none. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** An executable regular file of that name in the system folders (or the given PATH's). */
export function findExecutable(name: string, searchPath = SYSTEM_PATH): string | undefined {
  for (const folder of searchPath.split(':')) {
    if (!folder.startsWith('/')) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether `path` is `folder` or lies below it (both absolute and normalised). */
export function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** The interpreter binary for a script, from the system folders (node may fall back to this process's). */
export function interpreterPath(interpreter: ScriptInterpreter): string | undefined {
  const found = findExecutable(interpreter);
  if (found !== undefined) return found;
  return interpreter === 'node' ? process.execPath : undefined;
}
