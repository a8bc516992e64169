/**
 * The seams through which the library touches the outside world. The core never imports
 * `node:*`: it receives these, and `skillhost/node` provides real implementations.
 */

export type EntryKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'other';

export interface DirectoryEntry {
  readonly name: string;
  /** The kind of the entry itself (a symbolic link is reported as `symlink`). */
  readonly kind: EntryKind;
}

export interface FileStatus {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  /** Inode change time: moves on any change, and cannot be set back by a program. */
  readonly ctimeMs: number;
  readonly device: number;
  readonly inode: number;
  readonly links: number;
}

export type ListProblem = 'missing' | 'not-directory' | 'unreadable';

export type ListResult =
  | { readonly ok: true; readonly entries: readonly DirectoryEntry[] }
  | { readonly ok: false; readonly problem: ListProblem; readonly message: string };

export type ReadProblem =
  | 'missing'
  | 'not-regular'
  | 'symlink-escape'
  | 'symlink-broken'
  | 'too-large'
  | 'unreadable';

export type ReadResult =
  | {
      readonly ok: true;
      /** The bytes read. They may live in a buffer the next read reuses: copy them to keep them. */
      readonly bytes: Uint8Array;

      readonly status: FileStatus;
      /** True when only the first `maxBytes` were read because `allowPartial` was set. */
      readonly partial: boolean;
    }
  | {
      readonly ok: false;
      readonly problem: ReadProblem;
      /** A message about the file; never holds file content. */
      readonly message: string;
      readonly kind?: EntryKind;
    };

export interface ReadWithinOptions {
  /** Most bytes to read; a larger file is refused as `too-large` unless `allowPartial`. */
  readonly maxBytes: number;
  /** Read the first `maxBytes` bytes of a larger file instead of refusing it. */
  readonly allowPartial?: boolean;
  /** The entry's kind if a directory listing already told it (saves opening a FIFO or device). */
  readonly knownKind?: EntryKind;
}

/**
 * File access for skills. `readFileWithin` is the one safe routine for reading skill files:
 * it opens, then verifies what it opened (a regular file inside `root`), and caps the bytes
 * while reading.
 */
export interface SkillFileSystem {
  listDirectory(path: string): ListResult;
  /** Status of a path; `follow` decides whether a final symbolic link is followed. */
  status(path: string, follow: boolean): FileStatus | undefined;
  /**
   * Status of many paths (optional): an implementation may spread a large batch over threads.
   * Results are in the order of `paths`.
   */
  statusMany?(paths: readonly string[], follow: boolean): Array<FileStatus | undefined>;
  /** The canonical path with every symbolic link resolved, or undefined when it cannot be resolved. */
  realPath(path: string): string | undefined;
  /** Reads `relativePath` (POSIX, already checked to stay below root) from inside `root`. */
  readFileWithin(root: string, relativePath: string, options: ReadWithinOptions): ReadResult;
}

/** A cryptographic digest of bytes (the node entry uses SHA-256), as lower-case hex. */
export type ContentHasher = (bytes: Uint8Array) => string;

/**
 * A place to keep derived data between runs (the index cache). Safe to empty at any time:
 * whatever it returns is checked against the files before use.
 */
export interface CacheStore {
  load(key: string): string | undefined;
  save(key: string, text: string): void;
}

export interface WatchOptions {
  /** How many directory levels below each root are watched. */
  readonly depth: number;
  readonly followSymlinks: boolean;
}

export interface WatchHandle {
  close(): Promise<void>;
}

/**
 * Watches directory trees and calls `onChange` with a changed path (added, changed or removed
 * file or folder). The node entry provides one built on chokidar.
 */
export type DirectoryWatcher = (
  roots: readonly string[],
  onChange: (path: string) => void,
  options: WatchOptions,
) => WatchHandle;
