import {
  accessSync,
  closeSync,
  constants,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScriptInterpreter } from '../deps.js';
import { interpreterPath, isUnder, SYSTEM_FOLDERS } from './sandbox-system.js';

/**
 * The interpreters and packages a user's script would use outside the sandbox, found without
 * running anything: the project's virtual environment (`.venv`, or `VIRTUAL_ENV`), the Python
 * and Node that `PATH` resolves to (through pyenv and asdf shims; nvm's and other installs by
 * their real path), the user's site-packages (`~/.local/lib/pythonX.Y`), and the skill's
 * `node_modules` (trusted skills). Each is a folder bound read-only at its own path; nothing
 * else of the home is.
 */
export interface Toolchain {
  /** The interpreter to run, as a host path (shown at the same path in the sandbox). */
  readonly interpreter: string;
  /** Where it comes from: `system`, `venv`, `path`, `pyenv` or `asdf`. */
  readonly origin: 'system' | 'venv' | 'path' | 'pyenv' | 'asdf';
  /** Host folders bound read-only at their own path. */
  readonly binds: readonly string[];
  /** Environment variables for the script. */
  readonly env: Readonly<Record<string, string>>;
  /** Folders put before the system folders in the script's PATH. */
  readonly pathPrefix: readonly string[];
}

export interface ToolchainContext {
  /** The user's PATH (the process's), searched for `python3` and `node`. */
  readonly searchPath: string;
  /** The user's environment: VIRTUAL_ENV, PYENV_ROOT, PYENV_VERSION, ASDF_DATA_DIR. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string | undefined;
  /** The workspace's real path (where `.venv`, `.python-version` and `node_modules` are looked for). */
  readonly workspace: string | undefined;
  /**
   * The virtual environment `skillhost setup` made for the skill: its python runs Python
   * scripts, and its `bin` comes first in the PATH of every script (before a project's .venv).
   */
  readonly skillVenv?: string;
}

const isSystem = (path: string) => SYSTEM_FOLDERS.some((name) => isUnder(path, `/${name}`));

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The first bytes of a file (a shim is a short script; a real interpreter is large). */
function readHead(path: string, bytes = 2048): string {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const read = readSync(descriptor, buffer, 0, bytes, 0);
    return buffer.subarray(0, read).toString('latin1');
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The first line of a version file found from `start` upwards. */
function versionFile(start: string | undefined, name: string): string | undefined {
  let folder = start;
  while (folder !== undefined) {
    const text = readText(join(folder, name));
    if (text !== undefined) return text;
    const parent = dirname(folder);
    folder = parent === folder ? undefined : parent;
  }
  return undefined;
}

/** An install's prefix: the folder above its `bin`. */
const prefixOf = (binary: string) => dirname(dirname(binary));

/** A pyenv or asdf shim resolved to the install it would run, from their version files. */
function throughShim(
  found: string,
  name: string,
  context: ToolchainContext,
): { path: string; origin: 'pyenv' | 'asdf' } | undefined {
  const home = context.homeDir;
  const head = readHead(found);
  if (head.includes('pyenv')) {
    const root = context.env.PYENV_ROOT ?? (home === undefined ? undefined : join(home, '.pyenv'));
    if (root === undefined) return undefined;
    const version =
      context.env.PYENV_VERSION ??
      versionFile(context.workspace, '.python-version') ??
      readText(join(root, 'version'));
    for (const candidate of (version ?? '').split(/[\s:]+/)) {
      if (candidate === '' || candidate === 'system') continue;
      const path = join(root, 'versions', candidate, 'bin', name);
      if (executable(path)) return { path, origin: 'pyenv' };
    }
    return undefined;
  }
  if (head.includes('asdf')) {
    const root =
      context.env.ASDF_DATA_DIR ?? (home === undefined ? undefined : join(home, '.asdf'));
    const versions =
      versionFile(context.workspace, '.tool-versions') ??
      (home === undefined ? undefined : readText(join(home, '.tool-versions')));
    if (root === undefined || versions === undefined) return undefined;
    const plugin = name === 'node' ? 'nodejs' : 'python';
    const line = versions.split('\n').find((entry) => entry.trim().startsWith(`${plugin} `));
    const version = line?.trim().split(/\s+/)[1];
    if (version === undefined) return undefined;
    const path = join(root, 'installs', plugin, version, 'bin', name);
    return executable(path) ? { path, origin: 'asdf' } : undefined;
  }
  return undefined;
}

/** The program `PATH` resolves `name` to, as its real binary, or undefined for none or a shim it cannot follow. */
function fromPath(
  name: string,
  context: ToolchainContext,
): { path: string; origin: 'path' | 'pyenv' | 'asdf' } | undefined {
  for (const folder of context.searchPath.split(':')) {
    if (folder === '' || !folder.startsWith('/')) continue;
    const found = join(folder, name);
    if (!executable(found)) continue;
    const real = realpathSync(found);
    // A shim (pyenv, asdf: a script; volta: a program of its own) runs another program.
    const shim = throughShim(real, name, context);
    if (shim !== undefined) return { path: realpathSync(shim.path), origin: shim.origin };
    if (readHead(real, 2).startsWith('#!') || /shim/.test(real)) return undefined;
    return { path: real, origin: 'path' };
  }
  return undefined;
}

/** The Python a virtual environment was made from: `home` in its pyvenv.cfg. */
export function venvBase(venv: string): string | undefined {
  const config = readText(join(venv, 'pyvenv.cfg'));
  const home = config?.match(/^home\s*=\s*(.+)$/m)?.[1]?.trim();
  return home === undefined ? undefined : prefixOf(join(home, 'python'));
}

/** The user's own site-packages folders (`~/.local/lib/pythonX.Y`) that exist. */
function userSites(homeDir: string | undefined): string[] {
  if (homeDir === undefined) return [];
  const lib = join(homeDir, '.local', 'lib');
  try {
    return readdirSync(lib)
      .filter((name) => /^python\d+\.\d+$/.test(name))
      .map((name) => join(lib, name))
      .filter((path) => statSync(path).isDirectory());
  } catch {
    return [];
  }
}

/**
 * The toolchain of a run: which interpreter, and which folders and variables come with it.
 * `sh` and `bash` are always the system's.
 */
export function resolveToolchain(
  interpreter: ScriptInterpreter,
  context: ToolchainContext,
): Toolchain | undefined {
  const system = interpreterPath(interpreter);
  const binds: string[] = [];
  const env: Record<string, string> = {};
  const pathPrefix: string[] = [];
  const bindOutside = (folder: string) => {
    if (isSystem(folder)) return;
    if (context.workspace !== undefined && isUnder(folder, context.workspace)) return;
    if (!binds.some((bound) => isUnder(folder, bound))) binds.push(folder);
  };
  if (context.skillVenv !== undefined && interpreter !== 'python3' && interpreter !== 'node') {
    // A shell script of a set-up skill finds the environment's python first.
    const base = venvBase(context.skillVenv);
    bindOutside(context.skillVenv);
    if (base !== undefined) bindOutside(base);
    env.VIRTUAL_ENV = context.skillVenv;
    pathPrefix.push(join(context.skillVenv, 'bin'));
  }
  if (interpreter === 'python3') {
    const venvs = [
      context.skillVenv,
      context.env.VIRTUAL_ENV,
      context.workspace === undefined ? undefined : join(context.workspace, '.venv'),
    ];
    for (const venv of venvs) {
      if (venv === undefined) continue;
      const python = join(venv, 'bin', 'python');
      if (!executable(python)) continue;
      const base = venvBase(venv);
      bindOutside(venv);
      if (base !== undefined) bindOutside(base);
      env.VIRTUAL_ENV = venv;
      pathPrefix.push(join(venv, 'bin'));
      for (const site of userSites(context.homeDir)) bindOutside(site);
      if (context.homeDir !== undefined) env.PYTHONUSERBASE = join(context.homeDir, '.local');
      return { interpreter: python, origin: 'venv', binds, env, pathPrefix };
    }
  }
  if (interpreter === 'python3' || interpreter === 'node') {
    const found = fromPath(interpreter, context);
    const sites = interpreter === 'python3' ? userSites(context.homeDir) : [];
    for (const site of sites) bindOutside(site);
    if (sites.length > 0 && context.homeDir !== undefined)
      env.PYTHONUSERBASE = join(context.homeDir, '.local');
    if (found !== undefined && !isSystem(found.path)) {
      bindOutside(prefixOf(found.path));
      pathPrefix.push(dirname(found.path));
      return { interpreter: found.path, origin: found.origin, binds, env, pathPrefix };
    }
    if (found !== undefined)
      return { interpreter: found.path, origin: 'system', binds, env, pathPrefix };
  }
  if (system === undefined) return undefined;
  return { interpreter: system, origin: 'system', binds, env, pathPrefix };
}
