import type {
  DirectoryEntry,
  FileStatus,
  ListResult,
  ReadResult,
  ReadWithinOptions,
  SkillFileSystem,
} from '../deps.js';
import { isWithinPath, joinPath } from '../paths.js';
import { notRegular } from '../read-results.js';

/**
 * One entry of an in-memory tree: text or bytes are a regular file; the object forms make a
 * file with options, an empty directory, a symbolic link (its target as written, relative to
 * its folder or absolute), or a special file that can be listed but never read.
 */
export type MemoryEntry =
  | string
  | Uint8Array
  | {
      readonly kind: 'file';
      readonly content: string | Uint8Array;
      /** Reading it fails as with no read permission. */
      readonly unreadable?: boolean;
      /** Its hard-link count (default 1), e.g. 2 for a file linked from elsewhere. */
      readonly links?: number;
    }
  | { readonly kind: 'directory'; readonly unreadable?: boolean }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'fifo' | 'socket' | 'device' };

export interface MemoryFileSystemOptions {
  /** Where keys that are not absolute go (default `/`). */
  readonly root?: string;
}

/** How much work the file system was asked to do: tests assert on these, never on time. */
export interface MemoryFileSystemStats {
  listings: number;
  statuses: number;
  realPaths: number;
  /** Calls of readFileWithin. */
  reads: number;
  /** Bytes taken from file contents (at most `maxBytes + 1` per read, as the node reader). */
  bytesRead: number;
}

/** A `SkillFileSystem` held in memory, with the same answers as the node one, plus changes. */
export interface MemoryFileSystem extends SkillFileSystem {
  statusMany(paths: readonly string[], follow: boolean): Array<FileStatus | undefined>;
  /** Creates or replaces an entry (missing parent folders are made). */
  write(path: string, entry: MemoryEntry): void;
  /** Removes an entry and everything under it; a missing path is ignored. */
  remove(path: string): void;
  readonly stats: MemoryFileSystemStats;
}

interface NodeBase {
  readonly inode: number;
  mtimeMs: number;
  ctimeMs: number;
}

type TreeNode =
  | (NodeBase & { kind: 'file'; bytes: Uint8Array; unreadable: boolean; links: number })
  | (NodeBase & { kind: 'directory'; children: Map<string, TreeNode>; unreadable: boolean })
  | (NodeBase & { kind: 'symlink'; target: string })
  | (NodeBase & { kind: 'fifo' | 'socket' | 'device' });

type Failure = 'ENOENT' | 'ENOTDIR' | 'ELOOP';

type Resolved =
  | { readonly ok: true; readonly node: TreeNode; readonly path: string }
  | { readonly ok: false; readonly error: Failure };

/** Symbolic links followed in one lookup before it fails as a loop (Linux allows 40). */
const MAX_LINK_HOPS = 40;
/** 2025-01-01T00:00:00Z: file times start here and move one millisecond per change. */
const EPOCH = Date.UTC(2025, 0, 1);
const encoder = new TextEncoder();

function components(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

/** An absolute path with `.`, `..` and repeated slashes resolved by name. */
function lexicalPath(path: string, base: string): string {
  const parts: string[] = [];
  for (const part of components(path.startsWith('/') ? path : `${base}/${path}`)) {
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

const MISSING: ReadResult = { ok: false, problem: 'missing', message: 'No such file' };
const UNREADABLE: ReadResult = { ok: false, problem: 'unreadable', message: 'Permission denied' };

/**
 * An in-memory `SkillFileSystem` over `files` (path → entry; relative paths go under
 * `options.root`, default `/`). It answers as the node file system does: listings with entry
 * kinds, status with or without following a final link, real paths, and `readFileWithin` with
 * its problems (missing, not-regular, symlink-escape, symlink-broken, too-large, unreadable).
 * `stats` counts the work done.
 *
 * @example const fs = createMemoryFileSystem(skillFixture({ name: 'pdf' }), { root: '/skills' });
 */
export function createMemoryFileSystem(
  files: Readonly<Record<string, MemoryEntry>> = {},
  options: MemoryFileSystemOptions = {},
): MemoryFileSystem {
  const base = lexicalPath(options.root ?? '/', '/');
  let inodes = 1;
  let clock = EPOCH;
  const stamp = () => {
    clock += 1;
    return clock;
  };
  const directory = (): TreeNode => {
    const time = stamp();
    return {
      kind: 'directory',
      children: new Map(),
      unreadable: false,
      inode: inodes++,
      mtimeMs: time,
      ctimeMs: time,
    };
  };
  const root = directory() as Extract<TreeNode, { kind: 'directory' }>;
  const stats: MemoryFileSystemStats = {
    listings: 0,
    statuses: 0,
    realPaths: 0,
    reads: 0,
    bytesRead: 0,
  };

  /** Looks a path up component by component, following links as the kernel does. */
  function resolve(path: string, followFinal: boolean): Resolved {
    const queue = components(path.startsWith('/') ? path : `${base}/${path}`);
    const trail: Array<{ name: string; node: TreeNode }> = [];
    let current: TreeNode = root;
    let hops = 0;
    while (queue.length > 0) {
      const name = queue.shift() as string;
      if (name === '..') {
        trail.pop();
        current = trail.at(-1)?.node ?? root;
        continue;
      }
      if (current.kind !== 'directory') return { ok: false, error: 'ENOTDIR' };
      const child = current.children.get(name);
      if (child === undefined) return { ok: false, error: 'ENOENT' };
      if (child.kind === 'symlink' && (queue.length > 0 || followFinal)) {
        hops += 1;
        if (hops > MAX_LINK_HOPS) return { ok: false, error: 'ELOOP' };
        if (child.target.startsWith('/')) {
          trail.length = 0;
          current = root;
        }
        queue.unshift(...components(child.target));
        continue;
      }
      trail.push({ name, node: child });
      current = child;
    }
    return { ok: true, node: current, path: `/${trail.map((step) => step.name).join('/')}` };
  }

  function toStatus(node: TreeNode): FileStatus {
    const size =
      node.kind === 'file'
        ? node.bytes.length
        : node.kind === 'symlink'
          ? encoder.encode(node.target).length
          : 0;
    const links =
      node.kind === 'file'
        ? node.links
        : node.kind === 'directory'
          ? 2 + [...node.children.values()].filter((child) => child.kind === 'directory').length
          : 1;
    return {
      kind: node.kind,
      size,
      mtimeMs: node.mtimeMs,
      ctimeMs: node.ctimeMs,
      device: 1,
      inode: node.inode,
      links,
    };
  }

  function status(path: string, follow: boolean): FileStatus | undefined {
    stats.statuses += 1;
    const found = resolve(path, follow);
    return found.ok ? toStatus(found.node) : undefined;
  }

  function listDirectory(path: string): ListResult {
    stats.listings += 1;
    const found = resolve(path, true);
    if (!found.ok) {
      if (found.error === 'ENOENT')
        return { ok: false, problem: 'missing', message: 'No such directory' };
      if (found.error === 'ENOTDIR')
        return { ok: false, problem: 'not-directory', message: 'Not a directory' };
      return { ok: false, problem: 'unreadable', message: `Cannot list it (${found.error})` };
    }
    const node = found.node;
    if (node.kind !== 'directory')
      return { ok: false, problem: 'not-directory', message: 'Not a directory' };
    if (node.unreadable)
      return { ok: false, problem: 'unreadable', message: 'Cannot list it (EACCES)' };
    const entries: DirectoryEntry[] = [...node.children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, child]) => ({ name, kind: child.kind }));
    return { ok: true, entries };
  }

  function realPath(path: string): string | undefined {
    stats.realPaths += 1;
    const found = resolve(path, true);
    return found.ok ? found.path : undefined;
  }

  /** Reads an opened node as the node reader does: regular files only, never past the cap. */
  function readOpened(node: TreeNode, options: ReadWithinOptions): ReadResult {
    if (node.kind === 'file' && node.unreadable) return UNREADABLE;
    if (node.kind !== 'file') return notRegular(node.kind);
    const cap = Math.max(0, options.maxBytes);
    const taken = node.bytes.subarray(0, cap + 1);
    stats.bytesRead += taken.length;
    const over = taken.length > cap;
    if (over && options.allowPartial !== true) {
      return {
        ok: false,
        problem: 'too-large',
        message: `It is larger than the ${options.maxBytes}-byte limit`,
      };
    }
    return {
      ok: true,
      bytes: Uint8Array.from(taken.subarray(0, cap)),
      status: toStatus(node),
      partial: over,
    };
  }

  function readFileWithin(
    skillRoot: string,
    relativePath: string,
    options: ReadWithinOptions,
  ): ReadResult {
    stats.reads += 1;
    const known = options.knownKind;
    if (known !== undefined && known !== 'file' && known !== 'symlink') return notRegular(known);
    const target = relativePath === '' ? skillRoot : joinPath(skillRoot, relativePath);
    if (!relativePath.includes('/')) {
      // Opened without following a final link: anything but a link is read (or refused) as is.
      const direct = resolve(target, false);
      if (!direct.ok && direct.error !== 'ELOOP') return MISSING;
      if (direct.ok && direct.node.kind !== 'symlink') return readOpened(direct.node, options);
    }
    const realRoot = resolve(skillRoot, true);
    if (!realRoot.ok)
      return realRoot.error === 'ELOOP'
        ? { ok: false, problem: 'unreadable', message: 'Cannot open it (ELOOP)' }
        : MISSING;
    const real = resolve(target, true);
    if (!real.ok) {
      const entry = resolve(target, false);
      return entry.ok && entry.node.kind === 'symlink'
        ? {
            ok: false,
            problem: 'symlink-broken',
            message: 'The symbolic link leads nowhere (missing target or loop)',
          }
        : MISSING;
    }
    if (!isWithinPath(realRoot.path, real.path)) {
      return {
        ok: false,
        problem: 'symlink-escape',
        message: 'A symbolic link leads outside the skill directory',
      };
    }
    return readOpened(real.node, options);
  }

  function write(path: string, entry: MemoryEntry): void {
    const names = components(lexicalPath(path, base));
    const name = names.pop();
    if (name === undefined) throw new Error('The root folder cannot be replaced');
    let folder: TreeNode = root;
    for (const part of names) {
      if (folder.kind !== 'directory') throw new Error(`${path}: a parent is not a folder`);
      let next = folder.children.get(part);
      if (next === undefined) {
        next = directory();
        folder.children.set(part, next);
        folder.mtimeMs = next.mtimeMs;
        folder.ctimeMs = next.ctimeMs;
      }
      folder = next;
    }
    if (folder.kind !== 'directory') throw new Error(`${path}: a parent is not a folder`);
    const time = stamp();
    const previous = folder.children.get(name);
    const times = { mtimeMs: time, ctimeMs: time };
    const inode = previous?.inode ?? inodes++;
    let node: TreeNode;
    if (typeof entry === 'string' || entry instanceof Uint8Array) {
      node = { kind: 'file', bytes: bytesOf(entry), unreadable: false, links: 1, inode, ...times };
    } else if (entry.kind === 'file') {
      node = {
        kind: 'file',
        bytes: bytesOf(entry.content),
        unreadable: entry.unreadable === true,
        links: entry.links ?? 1,
        inode,
        ...times,
      };
    } else if (entry.kind === 'directory') {
      node = {
        kind: 'directory',
        children: previous?.kind === 'directory' ? previous.children : new Map(),
        unreadable: entry.unreadable === true,
        inode,
        ...times,
      };
    } else if (entry.kind === 'symlink') {
      node = { kind: 'symlink', target: entry.target, inode, ...times };
    } else {
      node = { kind: entry.kind, inode, ...times };
    }
    folder.children.set(name, node);
    folder.mtimeMs = time;
    folder.ctimeMs = time;
  }

  function remove(path: string): void {
    const names = components(lexicalPath(path, base));
    const name = names.pop();
    if (name === undefined) return;
    let folder: TreeNode | undefined = root;
    for (const part of names) {
      folder = folder.kind === 'directory' ? folder.children.get(part) : undefined;
      if (folder === undefined) return;
    }
    if (folder.kind !== 'directory' || !folder.children.delete(name)) return;
    const time = stamp();
    folder.mtimeMs = time;
    folder.ctimeMs = time;
  }

  for (const [path, entry] of Object.entries(files)) write(path, entry);

  return {
    listDirectory,
    status,
    statusMany: (paths, follow) => paths.map((path) => status(path, follow)),
    realPath,
    readFileWithin,
    write,
    remove,
    stats,
  };
}

function bytesOf(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? encoder.encode(content) : Uint8Array.from(content);
}
