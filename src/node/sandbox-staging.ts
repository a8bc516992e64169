import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  type Dirent,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmSync,
  type Stats,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { NotStagedFile, NotStagedFiles, NotStagedReason } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { READ_OPEN_FLAGS } from './open-flags.js';

const MAX_STAGED_ENTRIES = 2000;
const MAX_STAGED_BYTES = 64 * 1024 * 1024;
const MAX_STAGED_DEPTH = 16;
/** Files named in a run's result; the count covers the rest. */
const MAX_LISTED = 50;
/** Folders a skill's scripts never get: version control and installed packages. */
const EXCLUDED = new Set(['.git', 'node_modules']);

/** A user and group id: whom a script runs as. */
export interface StagingUser {
  readonly uid: number;
  readonly gid: number;
}

/** What staging knows of one entry of the skill, from the status of what it opened. */
export interface EntryFacts {
  readonly kind: 'file' | 'directory' | 'symlink' | 'special';
  readonly uid: number;
  readonly gid: number;
  readonly mode: number;
  readonly links: number;
}

export interface VerdictContext {
  readonly trusted: boolean;
  /** The owner of the skill's folder: every file of the skill should have it. */
  readonly skillOwner: number;
  /** Whom the script runs as (no capabilities, no supplementary groups). */
  readonly user: StagingUser;
  /** Whether `user` may search every folder from the skill's root down to the entry. */
  readonly reachable: boolean;
}

/**
 * Whether the permission bits let `user` have all of `bits` (4 read, 2 write, 1 search) on an
 * entry: the sandbox drops every capability and supplementary group, so the bits are the rule.
 */
export function mayAccess(facts: EntryFacts, user: StagingUser, bits: number): boolean {
  const shift = facts.uid === user.uid ? 6 : facts.gid === user.gid ? 3 : 0;
  return ((facts.mode >> shift) & bits) === bits;
}

/**
 * Why an entry of the skill must stay out of the sandbox, or undefined when it may be staged.
 * Links and special files never are. A file with other hard links (it may be a file from
 * anywhere), another owner than the skill folder, or that the script's user could not read
 * where it is, is left out of an untrusted skill; a trusted skill's is staged with its owner and
 * mode, which keep it exactly as readable as it was.
 */
export function stagingVerdict(
  facts: EntryFacts,
  context: VerdictContext,
): NotStagedReason | undefined {
  if (facts.kind === 'symlink') return 'symlink';
  if (facts.kind === 'special') return 'special';
  let doubt: NotStagedReason | undefined;
  if (facts.kind === 'file' && facts.links > 1) doubt = 'hard-link';
  else if (facts.uid !== context.skillOwner) doubt = 'other-owner';
  else if (
    !context.reachable ||
    !mayAccess(facts, context.user, facts.kind === 'directory' ? 1 : 4)
  )
    doubt = 'unreadable';
  return context.trusted ? undefined : doubt;
}

function factsOf(status: Stats): EntryFacts {
  return {
    kind: status.isFile()
      ? 'file'
      : status.isDirectory()
        ? 'directory'
        : status.isSymbolicLink()
          ? 'symlink'
          : 'special',
    uid: status.uid,
    gid: status.gid,
    mode: status.mode & 0o7777,
    links: status.nlink,
  };
}

/** An open entry: its descriptor, its path when opened (for messages), what fstat said. */
interface Opened {
  readonly fd: number;
  readonly path: string;
  readonly facts: EntryFacts;
  readonly size: number;
}

let procFd: boolean | undefined;
/**
 * The path of an entry inside a folder already open: through /proc/self/fd, so that the name is
 * looked up in the very folder that was judged even if its path has changed since (by path only
 * where there is no /proc). Without a name, the open entry itself.
 */
function inside(folder: Opened, name?: string): string {
  procFd ??= existsSync('/proc/self/fd');
  if (!procFd) return name === undefined ? folder.path : join(folder.path, name);
  return name === undefined ? `/proc/self/fd/${folder.fd}` : `/proc/self/fd/${folder.fd}/${name}`;
}

/** Opens an entry for reading without following a link (nor blocking on a FIFO). */
function openEntry(
  path: string,
  shown: string,
): Opened | { readonly problem: 'symlink' | 'unreadable' | 'special' } {
  let fd: number;
  try {
    fd = openSync(path, READ_OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the final name is a link (O_NOFOLLOW); ENXIO: a socket.
    return { problem: code === 'ELOOP' ? 'symlink' : code === 'ENXIO' ? 'special' : 'unreadable' };
  }
  const status = fstatSync(fd);
  return { fd, path: shown, facts: factsOf(status), size: status.size };
}

export interface StagingRequest {
  /** The skill's folder. */
  readonly source: string;
  /** Where the copy is made (must not exist). */
  readonly target: string;
  readonly trusted: boolean;
  /** Whom the script runs as. */
  readonly user: StagingUser;
  /** Give each copy its original's owner (possible, and needed, when skillhost runs as root). */
  readonly keepOwners: boolean;
  /** The script that runs: its path in the skill and the exact bytes that were approved. */
  readonly script: { readonly path: string; readonly bytes: Uint8Array };
}

/** One staging: the request, the skill folder's owner, what was left out, modes to set last. */
interface Staging {
  readonly request: StagingRequest;
  readonly skillOwner: number;
  readonly left: NotStagedFile[];
  /** Folder modes, deepest first: set once everything is written into them. */
  readonly folderModes: Array<readonly [string, number]>;
  entries: number;
  bytes: number;
}

/**
 * Copies the skill into `target` for a run, never making a file more readable than it is: each
 * entry is opened without following links and judged on what was opened (`stagingVerdict`);
 * copies keep their original's owner (as root) and mode, write bits dropped. The script gets its
 * approved bytes. Returns what was left out; throws when the script itself cannot be staged, or
 * the skill is too large.
 */
export function stageSkill(request: StagingRequest): NotStagedFiles {
  const source = realpathSync(request.source);
  const root = openEntry(source, source);
  if (!('fd' in root) || root.facts.kind !== 'directory') {
    throw new SkillhostError(
      'SCRIPT_NOT_STAGED',
      `The skill folder ${request.source} cannot be opened as a folder to stage it`,
    );
  }
  const staging: Staging = {
    request,
    skillOwner: root.facts.uid,
    left: [],
    folderModes: [],
    entries: 0,
    bytes: 0,
  };
  try {
    mkdirSync(request.target, { mode: 0o700 });
    copyFolder(staging, root, '', request.target, 0, mayAccess(root.facts, request.user, 1));
    stageScript(staging, root);
    settle(staging, request.target, root.facts);
  } finally {
    closeSync(root.fd);
  }
  for (const [path, mode] of staging.folderModes) chmodSync(path, mode);
  const left = staging.left.filter((file) => file.path !== request.script.path);
  return { count: left.length, files: left.slice(0, MAX_LISTED) };
}

/** Gives a copy its original's owner (as root) and mode without write bits (folders: last). */
function settle(staging: Staging, copy: string, facts: EntryFacts): void {
  const { keepOwners } = staging.request;
  if (keepOwners) chownSync(copy, facts.uid, facts.gid);
  // Without root a copy belongs to whoever staged it, who is also the script's user and could
  // read the original (it was copied): it keeps its owner's read and search bits.
  const directory = facts.kind === 'directory';
  const mode = (facts.mode & 0o555) | (keepOwners ? 0 : directory ? 0o700 : 0o400);
  if (directory) staging.folderModes.push([copy, mode]);
  else chmodSync(copy, mode);
}

function copyFolder(
  staging: Staging,
  folder: Opened,
  from: string,
  to: string,
  depth: number,
  reachable: boolean,
): void {
  const { request } = staging;
  let listing: Dirent[];
  try {
    listing = readdirSync(inside(folder), { withFileTypes: true });
  } catch {
    staging.left.push({ path: from, reason: 'unreadable' });
    return;
  }
  listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of listing) {
    const path = from === '' ? dirent.name : `${from}/${dirent.name}`;
    if (EXCLUDED.has(dirent.name)) {
      staging.left.push({ path, reason: 'excluded' });
      continue;
    }
    staging.entries += 1;
    if (staging.entries > MAX_STAGED_ENTRIES) {
      throw new SkillhostError(
        'SCRIPT_TOO_LARGE',
        `The skill has more than ${MAX_STAGED_ENTRIES} files to stage`,
      );
    }
    // A device is never opened (opening one can act on it); the listing says what it is.
    if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink()) {
      staging.left.push({ path, reason: 'special' });
      continue;
    }
    const entry = openEntry(inside(folder, dirent.name), join(folder.path, dirent.name));
    if (!('fd' in entry)) {
      staging.left.push({ path, reason: entry.problem });
      continue;
    }
    try {
      const { facts } = entry;
      const reason = stagingVerdict(facts, {
        trusted: request.trusted,
        skillOwner: staging.skillOwner,
        user: request.user,
        reachable,
      });
      const copy = join(to, dirent.name);
      if (reason !== undefined) staging.left.push({ path, reason });
      else if (facts.kind === 'directory') {
        if (depth + 1 >= MAX_STAGED_DEPTH) {
          staging.left.push({ path, reason: 'too-deep' });
          continue;
        }
        mkdirSync(copy, { mode: 0o700 });
        const below = reachable && mayAccess(facts, request.user, 1);
        copyFolder(staging, entry, path, copy, depth + 1, below);
        settle(staging, copy, facts);
      } else {
        staging.bytes += entry.size;
        if (staging.bytes > MAX_STAGED_BYTES) {
          throw new SkillhostError(
            'SCRIPT_TOO_LARGE',
            `The skill holds more than ${MAX_STAGED_BYTES} bytes to stage`,
          );
        }
        // The descriptor's own file, not whatever its name leads to by now.
        copyFileSync(inside(entry), copy, constants.COPYFILE_EXCL);
        settle(staging, copy, facts);
      }
    } finally {
      closeSync(entry.fd);
    }
  }
}

/**
 * Writes the approved bytes of the script in place of whatever the walk copied, after judging
 * the file the script really is (through links inside the skill) as every file is judged. A
 * script that may not be staged, or that its user could not read where it is, is refused: the
 * run cannot work without it.
 */
function stageScript(staging: Staging, root: Opened): void {
  const { request } = staging;
  const { path } = request.script;
  const refusal = (
    why: string,
    code: 'SCRIPT_NOT_STAGED' | 'RESOURCE_HARD_LINK' = 'SCRIPT_NOT_STAGED',
  ) =>
    new SkillhostError(code, `Script ${path} cannot be staged for the run: ${why}`, {
      details: { path },
    });
  let real: string;
  try {
    real = relative(root.path, realpathSync(join(root.path, path)));
  } catch {
    throw refusal('it cannot be found');
  }
  if (real === '' || real === '..' || real.startsWith(`..${sep}`) || real.startsWith(sep))
    throw refusal('it leads outside the skill');
  const { facts, reachable } = walkTo(root, real.split(sep), request.user);
  if (facts === undefined) throw refusal(`${real} changed while it was staged`);
  if (facts.kind !== 'file') throw refusal('it is not a regular file');
  const reason = stagingVerdict(facts, {
    trusted: request.trusted,
    skillOwner: staging.skillOwner,
    user: request.user,
    reachable,
  });
  if (reason === 'hard-link')
    throw refusal('it has other hard links and the skill is untrusted', 'RESOURCE_HARD_LINK');
  if (reason === 'other-owner')
    throw refusal('its owner is not the owner of the skill folder, and the skill is untrusted');
  // Even in a trusted skill: a script its user cannot read could not run.
  if (reason !== undefined || !reachable || !mayAccess(facts, request.user, 4))
    throw refusal(`the user it runs as (uid ${request.user.uid}) could not read it where it is`);
  const copy = join(request.target, path);
  mkdirSync(dirname(copy), { recursive: true, mode: 0o755 });
  // Replaces the copy of the file on disk (if the walk made one) with the approved bytes.
  rmSync(copy, { force: true });
  writeFileSync(copy, request.script.bytes, { mode: 0o600, flag: 'wx' });
  settle(staging, copy, facts);
}

/**
 * Goes down from an open folder one name at a time, never following a link: the facts of the
 * last entry (undefined if one could not be opened) and whether `user` may search every folder
 * on the way.
 */
function walkTo(
  root: Opened,
  names: readonly string[],
  user: StagingUser,
): { facts: EntryFacts | undefined; reachable: boolean } {
  let reachable = true;
  let folder = root;
  try {
    for (const name of names) {
      reachable = reachable && mayAccess(folder.facts, user, 1);
      const entry = openEntry(inside(folder, name), join(folder.path, name));
      if (folder !== root) closeSync(folder.fd);
      folder = root;
      if (!('fd' in entry)) return { facts: undefined, reachable };
      folder = entry;
    }
    return { facts: folder.facts, reachable };
  } finally {
    if (folder !== root) closeSync(folder.fd);
  }
}
