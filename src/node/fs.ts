import {
  closeSync,
  type Dirent,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { SkillhostError } from '../core.js';
import type {
  DirectoryEntry,
  EntryKind,
  FileStatus,
  ListResult,
  ReadResult,
  ReadWithinOptions,
  SkillFileSystem,
} from '../deps.js';
import { notRegular } from '../read-results.js';
import { READ_OPEN_FLAGS } from './open-flags.js';
import { READ_AHEAD_FROM, type ReadAhead, startReadAhead } from './read-ahead.js';
import { smallInteger, statusMany } from './stat-many.js';

const SCRATCH_BYTES = 64 * 1024;
// Both are found out or made on first use: importing this module does nothing but define things.
let procFd: boolean | undefined;
/** The buffer small reads go into; what `readFileWithin` returns from it is valid until the next read. */
let scratch: Buffer | undefined;

export function kindOfStats(stats: Stats): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'other';
}

export function kindOfDirent(entry: Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device';
  return 'other';
}

function toStatus(stats: Stats): FileStatus {
  return {
    kind: kindOfStats(stats),
    size: smallInteger(stats.size),
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    device: smallInteger(stats.dev),
    inode: smallInteger(stats.ino),
    links: smallInteger(stats.nlink),
  };
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : 'EUNKNOWN';
}

/** Whether a path is a symbolic link; false when it cannot be read (missing, or under a file). */
function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/** True when `child` is `parent` or below it, by path relation (not string prefix). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Reads from an open descriptor, never more than maxBytes + 1 bytes. A file whose status reports
 * a size is read up to that size (one read for a small file); a size of 0 (procfs and the like)
 * means read until end of file. Either way the cap holds, whatever the file does meanwhile.
 */
export function readBounded(
  fd: number,
  size: number,
  maxBytes: number,
): { bytes: Buffer; over: boolean } {
  const cap = maxBytes + 1;
  const expected = size > 0 ? Math.min(size, cap) : 0;
  // Small files (nearly every SKILL.md) are read into one reused buffer: no allocation per file.
  let buffer: Buffer;
  if (expected > 0 && expected <= SCRATCH_BYTES) {
    scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
    buffer = scratch.subarray(0, expected);
  } else buffer = Buffer.allocUnsafe(expected > 0 ? expected : Math.min(cap, 4096));

  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (expected > 0 || buffer.length >= cap) break;
      const grown = Buffer.allocUnsafe(Math.min(cap, buffer.length * 2));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const count = readSync(fd, buffer, filled, buffer.length - filled, null);
    if (count === 0) break;
    filled += count;
  }
  return { bytes: buffer.subarray(0, Math.min(filled, maxBytes)), over: filled > maxBytes };
}

function openFailure(error: unknown): ReadResult {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return { ok: false, problem: 'missing', message: 'No such file' };
  }
  if (code === 'ENXIO') return notRegular('socket');
  if (code === 'EACCES' || code === 'EPERM') {
    return { ok: false, problem: 'unreadable', message: 'Permission denied' };
  }
  return { ok: false, problem: 'unreadable', message: `Cannot open it (${code})` };
}

/** Resolves a path through its symbolic links and opens the result only if it stays in root. */
function openThroughLinks(root: string, target: string): { fd: number } | ReadResult {
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (error) {
    return openFailure(error);
  }
  try {
    real = realpathSync.native(target);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') {
      return isSymbolicLink(target)
        ? {
            ok: false,
            problem: 'symlink-broken',
            message: 'The symbolic link leads nowhere (missing target or loop)',
          }
        : { ok: false, problem: 'missing', message: 'No such file' };
    }
    return openFailure(error);
  }
  if (!isInside(realRoot, real)) {
    return {
      ok: false,
      problem: 'symlink-escape',
      message: 'A symbolic link leads outside the skill directory',
    };
  }
  let fd: number;
  try {
    fd = openSync(real, READ_OPEN_FLAGS);
  } catch (error) {
    return openFailure(error);
  }
  // Verify that what was opened is what was checked: a path swapped between the check and the
  // open (a directory replaced by a link) is caught here.
  let opened: string | undefined;
  try {
    procFd ??= existsSync('/proc/self/fd');
    opened = procFd ? readlinkSync(`/proc/self/fd/${fd}`) : undefined;
  } catch {
    opened = undefined;
  }
  if (opened !== undefined && opened !== real) {
    closeSync(fd);
    return {
      ok: false,
      problem: 'symlink-escape',
      message: 'The file changed while it was opened; it was not read',
    };
  }
  if (opened === undefined) {
    const expected = statSync(real, { throwIfNoEntry: false });
    const actual = fstatSync(fd);
    if (expected === undefined || expected.ino !== actual.ino || expected.dev !== actual.dev) {
      closeSync(fd);
      return {
        ok: false,
        problem: 'symlink-escape',
        message: 'The file changed while it was opened; it was not read',
      };
    }
  }
  return { fd };
}

/**
 * `join(root, name)` for the common case that needs no normalising: an absolute root without
 * empty, `.` or `..` segments or a trailing slash, and a name that is one plain segment.
 * Undefined otherwise.
 */
function plainJoin(root: string, name: string): string | undefined {
  if (
    root.length < 2 ||
    root.charCodeAt(0) !== 47 ||
    root.charCodeAt(root.length - 1) === 47 ||
    root.includes('//') ||
    root.includes('/./') ||
    root.includes('/../') ||
    root.endsWith('/.') ||
    root.endsWith('/..') ||
    name.includes('/') ||
    name === '.' ||
    name === '..'
  )
    return undefined;
  return `${root}/${name}`;
}

function readFileWithin(
  root: string,
  relativePath: string,
  options: ReadWithinOptions,
): ReadResult {
  const known = options.knownKind;
  if (known !== undefined && known !== 'file' && known !== 'symlink') return notRegular(known);
  const target =
    relativePath === '' ? root : (plainJoin(root, relativePath) ?? join(root, relativePath));
  let fd: number | undefined;
  if (!relativePath.includes('/')) {
    try {
      fd = openSync(target, READ_OPEN_FLAGS);
    } catch (error) {
      if (errorCode(error) !== 'ELOOP') return openFailure(error);
    }
  }
  if (fd === undefined) {
    const opened = openThroughLinks(root, target);
    if (!('fd' in opened)) return opened;
    fd = opened.fd;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return notRegular(kindOfStats(stats));
    const { bytes, over } = readBounded(fd, stats.size, options.maxBytes);
    if (over && options.allowPartial !== true) {
      return {
        ok: false,
        problem: 'too-large',
        message: `It is larger than the ${options.maxBytes}-byte limit`,
      };
    }
    return { ok: true, bytes, status: toStatus(stats), partial: over };
  } catch (error) {
    return { ok: false, problem: 'unreadable', message: `Cannot read it (${errorCode(error)})` };
  } finally {
    closeSync(fd);
  }
}

function listDirectory(path: string): ListResult {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { ok: false, problem: 'missing', message: 'No such directory' };
    if (code === 'ENOTDIR')
      return { ok: false, problem: 'not-directory', message: 'Not a directory' };
    return { ok: false, problem: 'unreadable', message: `Cannot list it (${code})` };
  }
  const result: DirectoryEntry[] = new Array(entries.length);
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Dirent;
    result[index] = { name: entry.name, kind: kindOfDirent(entry) };
  }
  return { ok: true, entries: result };
}

function status(path: string, follow: boolean): FileStatus | undefined {
  try {
    const stats = follow
      ? statSync(path, { throwIfNoEntry: false })
      : lstatSync(path, { throwIfNoEntry: false });
    return stats === undefined ? undefined : toStatus(stats);
  } catch {
    return undefined;
  }
}

/**
 * `status(path, false) !== undefined` without a status object: `existsSync` answers for nearly
 * every path (it follows links, so a link it says exists does); only a path it does not find is
 * asked again without following, for a link that leads nowhere.
 */
function exists(path: string): boolean {
  return existsSync(path) || status(path, false) !== undefined;
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

const nodeFileSystems = new WeakSet<SkillFileSystem>();

export interface NodeFileSystemOptions {
  /**
   * How many folders a walk must be about to visit before their skill files are read ahead on
   * a second thread (default `READ_AHEAD_FROM`, 4,000); `Infinity` never reads ahead.
   */
  readonly readAheadFrom?: number;
}

/** The real file system, with the safe-read routine. */
export function createNodeFileSystem(options: NodeFileSystemOptions = {}): SkillFileSystem {
  const from = options.readAheadFrom ?? READ_AHEAD_FROM;
  if (from !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(from) && from >= 1))
    throw new SkillhostError(
      'USAGE',
      'readAheadFrom must be a whole number of 1 or more, or Infinity',
    );
  // One read ahead at a time: a walk inside a walk reads as it goes.
  let ahead: ReadAhead | undefined;
  const fs: SkillFileSystem = {
    listDirectory,
    status,
    statusMany: (paths, follow) => statusMany(paths, follow, status),
    exists,
    realPath,
    readFileWithin: (root, relativePath, readOptions) =>
      (ahead === undefined ? undefined : ahead.take(root, relativePath, readOptions)) ??
      readFileWithin(root, relativePath, readOptions),
    readAhead: (directory, entries, fileName, readOptions) => {
      if (ahead !== undefined || entries.length < from) return undefined;
      const names = entries.map((entry) => entry.name);
      const started = startReadAhead(directory, names, fileName, readOptions);
      if (started === undefined) return undefined;
      ahead = started;
      return () => {
        started.stop();
        if (ahead === started) ahead = undefined;
      };
    },
  };
  nodeFileSystems.add(fs);
  return fs;
}

/** Whether `fs` is one `createNodeFileSystem` made: the disk itself, which another thread can read too. */
export function isNodeFileSystem(fs: SkillFileSystem): boolean {
  return nodeFileSystems.has(fs);
}
