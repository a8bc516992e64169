import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SkillEnvironmentStatus } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { READ_OPEN_FLAGS } from './open-flags.js';

/**
 * The environments `skillhost setup` prepares for a skill's declared dependencies, one folder
 * per exact content of the skill: `ENVIRONMENTS/<content hash>/`, holding `venv/` (Python,
 * from `scripts/requirements.txt`), `skill/` (the copy of the skill the installers ran in;
 * Node's packages are in `skill/scripts/node_modules`) and `skillhost-env.json`, written last,
 * which marks the environment ready. `ENVIRONMENTS/skills/<hash of the skill's path>.json`
 * says which content the last setup of a skill folder was for, so a run can tell a skill that
 * changed since from one never set up.
 */

/** Folders left out of a skill's content hash and of the copy the installers run in. */
const LEFT_OUT = new Set(['.git', 'node_modules', '__pycache__', '.venv']);
/** Files never copied: they would configure the installers (and commonly hold secrets). */
const NOT_COPIED = new Set(['.npmrc', '.yarnrc', '.yarnrc.yml', '.pypirc', 'pip.conf']);
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_DEPTH = 16;

/** The dependency files a skill may ship, relative to it. */
export const REQUIREMENTS_FILE = 'scripts/requirements.txt';
export const PACKAGE_FILE = 'scripts/package.json';
/** The file that marks an environment ready (written last). */
export const ENVIRONMENT_MARKER = 'skillhost-env.json';

/** One entry of a skill, as hashing and copying see it (links are never followed). */
interface SkillEntry {
  readonly path: string;
  readonly full: string;
  readonly status: Stats;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Every file, folder and link of a skill, sorted, depth first, within bounds. */
function skillEntries(root: string): SkillEntry[] {
  const found: SkillEntry[] = [];
  let bytes = 0;
  const visit = (folder: string, prefix: string, depth: number) => {
    const names = readdirSync(folder).sort();
    for (const name of names) {
      if (LEFT_OUT.has(name)) continue;
      const full = join(folder, name);
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const status = lstatOrUndefined(full);
      if (status === undefined) continue;
      if (!status.isFile() && !status.isDirectory() && !status.isSymbolicLink()) continue;
      found.push({ path, full, status });
      if (status.isFile()) bytes += status.size;
      if (found.length > MAX_ENTRIES || bytes > MAX_BYTES)
        throw new SkillhostError(
          'SCRIPT_TOO_LARGE',
          `The skill ${root} has more than ${MAX_ENTRIES} files or ${MAX_BYTES} bytes`,
        );
      if (status.isDirectory() && depth + 1 < MAX_DEPTH) visit(full, path, depth + 1);
    }
  };
  visit(root, '', 0);
  return found;
}

/** The bytes of a regular file, opened without following a link or blocking on a FIFO. */
function readRegular(path: string): Buffer {
  const fd = openSync(path, READ_OPEN_FLAGS);
  try {
    const status = fstatSync(fd);
    if (!status.isFile()) throw new SkillhostError('SCRIPT_NOT_STAGED', `${path} is not a file`);
    const buffer = Buffer.alloc(status.size);
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * The SHA-256 of a skill's whole content: every file's path, executable bit and bytes, every
 * folder and every link's target, in sorted order (version control, installed packages and
 * Python's caches left out). An environment is made for, and used with, this exact content.
 */
export function skillContentHash(directory: string): string {
  const root = realpathSync(directory);
  const hash = createHash('sha256');
  for (const { path, full, status } of skillEntries(root)) {
    if (status.isDirectory()) hash.update(`d\0${path}\n`);
    else if (status.isSymbolicLink()) hash.update(`l\0${path}\0${readlinkSync(full)}\n`);
    else {
      const digest = createHash('sha256').update(readRegular(full)).digest('hex');
      hash.update(`f\0${path}\0${(status.mode & 0o111) === 0 ? '-' : 'x'}\0${digest}\n`);
    }
  }
  return hash.digest('hex');
}

/** What a skill declares it needs: Python packages, Node packages, both or neither. */
export function skillDependencyKinds(directory: string): ('python' | 'node')[] {
  const kinds: ('python' | 'node')[] = [];
  if (lstatOrUndefined(join(directory, REQUIREMENTS_FILE))?.isFile() === true) kinds.push('python');
  if (lstatOrUndefined(join(directory, PACKAGE_FILE))?.isFile() === true) kinds.push('node');
  return kinds;
}

/** The file that says which content the last setup of a skill folder was for. */
export function pointerFile(environments: string, skillDirectory: string): string {
  const key = createHash('sha256').update(realpathSync(skillDirectory)).digest('hex');
  return join(environments, 'skills', `${key.slice(0, 32)}.json`);
}

/** Whether an environment folder is complete (its marker, written last, is there). */
export function environmentReady(folder: string): boolean {
  return lstatOrUndefined(join(folder, ENVIRONMENT_MARKER))?.isFile() === true;
}

/** The content hash the last setup of this skill folder was for, if any. */
export function lastSetUp(environments: string, skillDirectory: string): string | undefined {
  try {
    const text = readFileSync(pointerFile(environments, skillDirectory), 'utf8');
    const hash = (JSON.parse(text) as { contentHash?: unknown }).contentHash;
    return typeof hash === 'string' ? hash : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a skill has an environment for its exact content: `used` (ready, made by setup for
 * this content), `stale` (a setup was made for an earlier content of this folder), `missing`
 * (never set up). Undefined for a skill that declares no dependencies: nothing to look for, and
 * nothing read beyond two file statuses.
 */
export function findSkillEnvironment(
  environments: string,
  skillDirectory: string,
): SkillEnvironmentStatus | undefined {
  const kinds = skillDependencyKinds(skillDirectory);
  if (kinds.length === 0) return undefined;
  const contentHash = skillContentHash(skillDirectory);
  const folder = join(environments, contentHash);
  if (environmentReady(folder)) return { status: 'used', contentHash, folder, kinds };
  const last = lastSetUp(environments, skillDirectory);
  return {
    status: last === undefined ? 'missing' : 'stale',
    contentHash,
    kinds,
  };
}

/**
 * Copies a skill's regular files and folders to `target` (which must not exist) for the
 * installers: links, special files, version control, installed packages and the installers'
 * configuration files are left out. Returns the copied paths.
 */
export function copySkillFiles(source: string, target: string): string[] {
  const root = realpathSync(source);
  mkdirSync(target, { mode: 0o755 });
  const copied: string[] = [];
  for (const { path, full, status } of skillEntries(root)) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (status.isSymbolicLink() || NOT_COPIED.has(name)) continue;
    // A folder left out (a link, say) leaves out what is below it.
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (parent !== '' && lstatOrUndefined(join(target, parent))?.isDirectory() !== true) continue;
    const copy = join(target, path);
    if (status.isDirectory()) mkdirSync(copy, { mode: 0o755 });
    else {
      // Read through a descriptor that refuses links: the file judged is the file copied.
      writeFileSync(copy, readRegular(full), {
        flag: 'wx',
        mode: (status.mode & 0o111) === 0 ? 0o644 : 0o755,
      });
      copied.push(path);
    }
  }
  return copied;
}

/** What a run gets of a skill's environment, and the folders its user must reach for it. */
export interface RunEnvironment {
  readonly status: SkillEnvironmentStatus | undefined;
  /** The virtual environment (Python), when one is used. */
  readonly venv: string | undefined;
  /** The installed Node packages, when used. */
  readonly modules: string | undefined;
  /** Folders the script's user must reach: the environment and the Python it was made from. */
  readonly needs: readonly string[];
}

const NO_ENVIRONMENT: RunEnvironment = {
  status: undefined,
  venv: undefined,
  modules: undefined,
  needs: [],
};

/**
 * The environment a run of a skill's script uses: the one `skillhost setup` made for the
 * skill's exact content in `environments` (its venv's python first for Python, its packages at
 * the skill's scripts/node_modules for Node), or none, with the reason in `status`.
 */
export function environmentForRun(
  environments: string | undefined,
  skillDirectory: string,
  pythonBase: (venv: string) => string | undefined,
): RunEnvironment {
  if (environments === undefined) return NO_ENVIRONMENT;
  const status = findSkillEnvironment(environments, skillDirectory);
  if (status?.folder === undefined || status.status !== 'used')
    return { ...NO_ENVIRONMENT, status };
  const venvFolder = join(status.folder, 'venv');
  const modulesFolder = join(status.folder, 'skill', 'scripts', 'node_modules');
  const venv =
    status.kinds.includes('python') && lstatOrUndefined(join(venvFolder, 'bin', 'python'))
      ? realpathSync(venvFolder)
      : undefined;
  const modules =
    status.kinds.includes('node') && lstatOrUndefined(modulesFolder)?.isDirectory() === true
      ? realpathSync(modulesFolder)
      : undefined;
  const base = venv === undefined ? undefined : pythonBase(venv);
  return {
    status,
    venv,
    modules,
    needs: [
      ...(venv === undefined ? [] : [venv]),
      ...(base === undefined ? [] : [base]),
      ...(modules === undefined ? [] : [modules]),
    ],
  };
}

/** The same environment, not used: the script's user cannot reach it. */
export function unreachableEnvironment(found: RunEnvironment): RunEnvironment {
  if (found.status === undefined || found.needs.length === 0) return found;
  return { ...NO_ENVIRONMENT, status: { ...found.status, status: 'unreachable' } };
}
