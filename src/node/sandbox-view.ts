import {
  chmodSync,
  chownSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  rmSync,
  type Stats,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import type { SkillEnvironmentStatus, WrittenFile } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';
import { isUnder } from './sandbox-system.js';

/**
 * What a script sees of a workspace besides its files: the files that commonly hold secrets are
 * hidden (each covered by an unreadable placeholder), a read-only workspace's working directory
 * keeps what the script writes in a run folder, and a writable one is compared before and after
 * so that every file written is listed.
 */

/** Most entries of a workspace looked at for secret files; past it the run is refused. */
const MAX_SCANNED = 50_000;
const MAX_DEPTH = 12;
/**
 * Folders not searched (for secret files, nor for files written to a writable workspace):
 * installed packages and caches, not the user's own files.
 */
export const NOT_SEARCHED: ReadonlySet<string> = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
]);
/** Files written that are listed by name; the count covers the rest. */
const MAX_LISTED = 200;

/**
 * Whether a workspace entry is one that commonly holds secrets: `.env` and `.env.*`, `*.pem`,
 * `*.key`, SSH keys (`id_rsa`, `id_ed25519`, ... without an extension), `.npmrc`, `.pypirc`,
 * `.netrc`, `.git-credentials`, and a repository's `.git/config`.
 */
export function isSecretName(name: string, parent: string): boolean {
  if (name === '.env' || name.startsWith('.env.')) return true;
  if (name.endsWith('.pem') || name.endsWith('.key')) return true;
  if (/^id_[a-z0-9_]+$/i.test(name)) return true;
  if (['.npmrc', '.pypirc', '.netrc', '.git-credentials'].includes(name)) return true;
  return name === 'config' && parent === '.git';
}

/** An entry as the snapshot of a writable workspace keeps it. */
interface Seen {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly inode: number;
}

export interface WorkspaceScan {
  /** Secret entries, relative to the workspace, with their kind (what hides them). */
  readonly secrets: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[];
  /** Regular files and their identity (only when a snapshot was asked for). */
  readonly files: ReadonlyMap<string, Seen>;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Walks a workspace (links not followed, package folders not searched) for secret files, and
 * for a snapshot of its regular files when asked. A secret reached by a symbolic link is hidden
 * at the link (bubblewrap mounts over its target, inside the workspace) unless it leads out of
 * it, where the sandbox shows nothing anyway. Throws WORKSPACE_REFUSED for a workspace too
 * large to search.
 */
export function scanWorkspace(
  root: string,
  options: { readonly expose: readonly string[]; readonly snapshot: boolean },
): WorkspaceScan {
  const exposed = new Set(options.expose);
  const secrets: { path: string; kind: 'file' | 'directory' }[] = [];
  const files = new Map<string, Seen>();
  let scanned = 0;
  const visit = (folder: string, prefix: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    const parent = basename(folder);
    for (const name of names.sort()) {
      scanned += 1;
      if (scanned > MAX_SCANNED)
        throw new SkillhostError(
          'WORKSPACE_REFUSED',
          `The workspace ${root} holds more than ${MAX_SCANNED} entries to search for secret files; grant a smaller folder (--workspace DIR), or none (--no-workspace)`,
        );
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const full = join(folder, name);
      const status = lstatOrUndefined(full);
      if (status === undefined) continue;
      if (isSecretName(name, parent) && !exposed.has(path)) {
        if (status.isSymbolicLink()) {
          let target: string | undefined;
          try {
            target = realpathSync(full);
          } catch {
            target = undefined;
          }
          if (target !== undefined && isUnder(target, root)) {
            const kind = lstatSync(target).isDirectory() ? 'directory' : 'file';
            secrets.push({ path, kind });
          }
        } else {
          secrets.push({ path, kind: status.isDirectory() ? 'directory' : 'file' });
        }
        continue;
      }
      if (status.isDirectory()) {
        if (name === '.git') {
          // Not walked (its objects are many and not secrets): only its config is looked at.
          const config = `${path}/config`;
          if (lstatOrUndefined(join(full, 'config'))?.isFile() === true && !exposed.has(config))
            secrets.push({ path: config, kind: 'file' });
        } else if (depth < MAX_DEPTH && !NOT_SEARCHED.has(name)) visit(full, path, depth + 1);
      } else if (options.snapshot && status.isFile()) {
        files.set(path, {
          size: status.size,
          mtimeMs: status.mtimeMs,
          ctimeMs: status.ctimeMs,
          inode: status.ino,
        });
      }
    }
  };
  visit(root, '', 0);
  return { secrets, files };
}

/**
 * The paths, relative to the workspace, given with `--expose`: relative to it or absolute
 * inside it. Throws WORKSPACE_REFUSED for one outside it.
 */
export function normaliseExposed(given: readonly string[], root: string): string[] {
  return given.map((path) => {
    const inside = isAbsolute(path) ? relative(root, path) : relative(root, resolve(root, path));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
      throw new SkillhostError(
        'WORKSPACE_REFUSED',
        `The path to expose ${quote(path)} is not inside the workspace ${root}`,
      );
    return inside.split('\\').join('/');
  });
}

/**
 * Files under /etc that only root may read (mode without read for others): hidden when a script
 * runs as root mapped into its sandbox, since root's owner bits would let it read them.
 */
export function rootOnlySystemEntries(
  folder = '/etc',
): { readonly path: string; readonly kind: 'file' | 'directory' }[] {
  const found: { path: string; kind: 'file' | 'directory' }[] = [];
  let seen = 0;
  const visit = (current: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return;
    }
    for (const name of names) {
      seen += 1;
      if (seen > MAX_SCANNED) return;
      const full = join(current, name);
      const status = lstatOrUndefined(full);
      if (status === undefined || status.isSymbolicLink()) continue;
      const otherRead = (status.mode & 0o004) !== 0;
      if (status.isDirectory()) {
        if (!otherRead || (status.mode & 0o001) === 0)
          found.push({ path: full, kind: 'directory' });
        else if (depth < MAX_DEPTH) visit(full, depth + 1);
      } else if (!otherRead) {
        found.push({ path: full, kind: 'file' });
      }
    }
  };
  visit(folder, 0);
  return found;
}

/** Empty placeholders nobody may read, bound over what is hidden. */
export function makePlaceholders(runRoot: string): { file: string; directory: string } {
  const file = join(runRoot, 'hidden-file');
  const directory = join(runRoot, 'hidden-directory');
  closeSync(openSync(file, 'wx', 0o000));
  chmodSync(file, 0o000);
  mkdirSync(directory, { mode: 0o000 });
  chmodSync(directory, 0o000);
  return { file, directory };
}

/** A run folder's identity: sortable by time, unique by its random tail. */
export function newRunId(now: Date, random: () => number = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const tail = Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `${stamp}-${tail}`;
}

/**
 * Most entries of a workspace shown in a run folder by a mount of their own; the others (and
 * the workspace's own links) are links into the view.
 */
export const MAX_MOUNTED_ENTRIES = 256;

/**
 * The working directory of a read-only workspace: a run folder that shows its entries. A folder
 * or file of the workspace is mounted read-only over a placeholder of its own kind, so that the
 * script finds real folders and files there (`find .`, `os.walk`, `fs.readdir` with file types
 * all descend as they would on the host); past MAX_MOUNTED_ENTRIES, and for the workspace's own
 * links, the entry is a link into the view.
 */
export interface OutputFolder {
  /** The run folder on the host. */
  readonly path: string;
  /** The names linked to the workspace's own entries, and where each link points. */
  readonly links: ReadonlyMap<string, string>;
  /** The names shown by a mount of the view's entry, with the placeholder's kind. */
  readonly mounts: ReadonlyMap<string, 'file' | 'directory'>;
}

/**
 * Makes the run folder `outputs/<runId>`, owned by the script's user, holding for each entry of
 * the workspace a placeholder that the entry is mounted over, read-only (or a link to the
 * entry in the workspace's read-only view at `view`): the script reads the workspace through its working directory as it would
 * on the host, and what it creates there stays in the run folder. Throws WORKSPACE_NOT_WRITABLE
 * when the folder cannot be made.
 */
export function makeOutputFolder(
  outputs: string,
  runId: string,
  workspace: string,
  view: string,
  user: { readonly uid: number; readonly gid: number } | undefined,
): OutputFolder {
  const path = join(outputs, runId);
  try {
    mkdirSync(outputs, { recursive: true, mode: 0o755 });
    mkdirSync(path, { mode: 0o755 });
    if (user !== undefined) chownSync(path, user.uid, user.gid);
  } catch (error) {
    throw new SkillhostError(
      'WORKSPACE_NOT_WRITABLE',
      `The run folder ${path}, which keeps what the script writes, cannot be made: ${(error as Error).message}`,
    );
  }
  const links = new Map<string, string>();
  const mounts = new Map<string, 'file' | 'directory'>();
  for (const entry of readdirSync(workspace, { withFileTypes: true })) {
    const name = entry.name;
    const kind = entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : undefined;
    if (kind !== undefined && mounts.size < MAX_MOUNTED_ENTRIES) {
      if (kind === 'directory') mkdirSync(join(path, name), { mode: 0o755 });
      else writeFileSync(join(path, name), '', { mode: 0o644, flag: 'wx' });
      mounts.set(name, kind);
      continue;
    }
    const target = `${view}/${name}`;
    symlinkSync(target, join(path, name));
    links.set(name, target);
  }
  return { path, links, mounts };
}

/**
 * After the run: removes the folder's own links and placeholders, and links and special files
 * the script made (noted by name), clears set-id bits, and lists every regular file left with
 * its size. Removes the run folder when nothing is left.
 */
export function collectOutputs(folder: OutputFolder): {
  readonly files: WrittenFile[];
  readonly count: number;
  readonly removed: string[];
} {
  const files: WrittenFile[] = [];
  const removed: string[] = [];
  let count = 0;
  const visit = (current: string, prefix: string) => {
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const full = join(current, name);
      const status = lstatOrUndefined(full);
      if (status === undefined) continue;
      // A placeholder the view's entry was mounted over: empty, since the mount covered it.
      const placeholder = prefix === '' ? folder.mounts.get(name) : undefined;
      if (placeholder === 'directory' && status.isDirectory()) {
        try {
          rmdirSync(full);
          continue;
        } catch {
          // not empty: list what is in it
        }
      } else if (placeholder === 'file' && status.isFile() && status.size === 0) {
        unlinkSync(full);
        continue;
      }
      if (status.isSymbolicLink()) {
        const ours = prefix === '' && folder.links.get(name) === readlinkSync(full);
        unlinkSync(full);
        if (!ours) removed.push(path);
      } else if (status.isDirectory()) {
        visit(full, path);
        try {
          rmdirSync(full);
        } catch {
          // not empty: it holds what was written
        }
      } else if (status.isFile()) {
        if ((status.mode & 0o6000) !== 0) chmodSync(full, status.mode & 0o1777);
        count += 1;
        if (files.length < MAX_LISTED) files.push({ path, bytes: status.size, location: full });
      } else {
        rmSync(full, { force: true });
        removed.push(path);
      }
    }
  };
  visit(folder.path, '');
  try {
    rmdirSync(folder.path);
  } catch {
    // it holds what was written
  }
  return { files, count, removed };
}

/** The regular files of a writable workspace that are new or changed since the snapshot. */
export function changedFiles(
  root: string,
  before: ReadonlyMap<string, Seen>,
  after: ReadonlyMap<string, Seen>,
): { readonly files: WrittenFile[]; readonly count: number } {
  const files: WrittenFile[] = [];
  let count = 0;
  for (const [path, seen] of after) {
    const old = before.get(path);
    if (
      old !== undefined &&
      old.size === seen.size &&
      old.mtimeMs === seen.mtimeMs &&
      old.ctimeMs === seen.ctimeMs &&
      old.inode === seen.inode
    )
      continue;
    count += 1;
    if (files.length < MAX_LISTED)
      files.push({ path, bytes: seen.size, location: join(root, path) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, count };
}

/** Paths in a message, absolute ones and words that look like relative file names. */
const PATH_WORD = /(?:\/[\w.@+-]+)+|[\w.@+-]*(?:\/[\w.@+-]+)*\.?[\w@+-]+/g;
const NOT_FOUND =
  /No such file or directory|ENOENT|FileNotFoundError|not found|cannot find|Cannot find/;
const DENIED = /Permission denied|EACCES|PermissionError/;
const READ_ONLY = /Read-only file system|EROFS/;

/** What the runner knows of a run's view, to explain a failed path in its error output. */
export interface ViewFacts {
  /** The workspace's real path, when one is granted. */
  readonly workspace: string | undefined;
  readonly writable: boolean;
  /** Hidden secret paths, relative to the workspace. */
  readonly hidden: readonly string[];
  /** Host folders the sandbox shows (the skill, the system folders, toolchains). */
  readonly visible: readonly string[];
  /** Whether the working directory keeps new files (a run folder). */
  readonly keepsOutputs: boolean;
  /** Whether the run had the network. */
  readonly network?: boolean;
  /** The skill (its name, as `skillhost setup` takes it) and its dependencies' environment. */
  readonly skill?: RunSkill;
}

/** The skill of a run, for hints: its name and the environment of its dependencies. */
export interface RunSkill {
  readonly name: string;
  readonly environment: SkillEnvironmentStatus | undefined;
}

const DECLARED = { python: 'scripts/requirements.txt', node: 'scripts/package.json' } as const;

/**
 * Hints about the skill's environment given with every run, failed or not: one made for an
 * earlier content of the skill (not used), or one its user cannot reach.
 */
export function environmentHints(skill: RunSkill): string[] {
  const found = skill.environment;
  if (found?.status === 'stale')
    return [
      `the skill changed since skillhost setup prepared its packages, so that environment was not used: run skillhost setup ${skill.name} again`,
    ];
  if (found?.status === 'unreachable')
    return [
      `the environment skillhost setup made for this skill (${found.folder}) was not used: the user the script runs as cannot reach it; let every user search the folders above it (chmod o+x on $SKILLHOST_HOME and its parents: its files stay private)`,
    ];
  return [];
}

/** The hint for a module a script could not import. */
function moduleHint(module: string, skill: RunSkill | undefined): string {
  const name = skill?.name ?? 'NAME';
  const found = skill?.environment;
  if (found === undefined)
    return `the module ${module} is not installed where the sandbox looks: a script sees the project's .venv (or VIRTUAL_ENV), ~/.local/lib/pythonX.Y, the python and node on your PATH, and node_modules of the skill or the project; install it there (python3 -m venv .venv && .venv/bin/pip install ..., or npm install in the project), or declare it in the skill's scripts/requirements.txt or scripts/package.json and run skillhost setup ${name}`;
  const files = found.kinds.map((kind) => DECLARED[kind]).join(' and ');
  if (found.status === 'used')
    return `the module ${module} is not in the environment skillhost setup made from ${files} (${found.folder}); declare it there and run skillhost setup ${name} again`;
  return `the module ${module} is not installed: this skill declares its packages in ${files}; install them once with skillhost setup ${name}`;
}

/** What a failed network call prints: name lookup, unreachable or refused connections. */
const NETWORK_FAILED =
  /Temporary failure in name resolution|Name or service not known|getaddrinfo|EAI_AGAIN|ENOTFOUND|Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|Could not resolve host|Failed to establish a new connection|fetch failed/;

/**
 * Hints for a run's error output: a hidden secret file it was denied (how to expose it), a
 * host path it could not find that exists outside what the sandbox shows (how to grant it), a
 * write refused by a read-only workspace (how to make it writable).
 */
export function pathHints(
  stderr: string,
  facts: ViewFacts,
  exists: (path: string) => boolean,
): string[] {
  const hints = new Set<string>();
  for (const line of stderr.split('\n').slice(0, 400)) {
    if (facts.network !== true && NETWORK_FAILED.test(line)) {
      hints.add(
        'the network is off in the sandbox; if this script needs it, run it with --allow-net (you will be asked to confirm it for this skill and script)',
      );
      continue;
    }
    const module =
      /No module named '([^']+)'/.exec(line)?.[1] ??
      /Cannot find (?:module|package) '([^']+)'/.exec(line)?.[1];
    if (module !== undefined && !module.startsWith('.') && !module.startsWith('/')) {
      hints.add(moduleHint(module, facts.skill));
      continue;
    }
    const denied = DENIED.test(line);
    const missing = NOT_FOUND.test(line);
    const readOnly = READ_ONLY.test(line);
    if (!denied && !missing && !readOnly) continue;
    for (const word of line.match(PATH_WORD) ?? []) {
      const clean = word.replace(/^\.\//, '');
      if (denied && facts.workspace !== undefined) {
        const inside = isAbsolute(clean) ? relative(facts.workspace, clean) : clean;
        const secret = facts.hidden.find(
          (path) => inside === path || inside.startsWith(`${path}/`),
        );
        if (secret !== undefined) {
          hints.add(
            `${secret} is hidden by the sandbox because files like it commonly hold secrets; to let scripts read it, run with --expose ${secret}`,
          );
          continue;
        }
      }
      if (missing && isAbsolute(clean)) {
        const shown =
          (facts.workspace !== undefined && isUnder(clean, facts.workspace)) ||
          facts.visible.some((folder) => isUnder(clean, folder));
        if (!shown && exists(clean))
          hints.add(
            `${clean} exists on this machine, but the sandbox does not show it: a script sees only its workspace${facts.workspace === undefined ? ' (none was granted)' : ` (${facts.workspace})`}, the skill and the system folders; run with --workspace DIR for a folder that holds it`,
          );
      }
    }
    if (readOnly && facts.workspace !== undefined && !facts.writable)
      hints.add(
        `the workspace ${facts.workspace} is read-only in the sandbox${facts.keepsOutputs ? ' (new files in the working directory are kept in the run folder, but existing folders cannot be written)' : ''}; to let the script change it, run with --workspace-writable`,
      );
  }
  return [...hints].slice(0, 5);
}
