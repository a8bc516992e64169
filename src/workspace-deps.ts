/**
 * The seam through which the host tools (`workspace_read`, `_list`, `_write`, ...) reach a
 * workspace: the core never imports `node:*`; `skillhost/node` provides `createWorkspaceFiles`.
 */

import type { EntryKind } from './deps.js';

/** Why the host tools could not do what was asked with a workspace path. */
export type WorkspaceProblem =
  | 'missing'
  /** The path, or a symbolic link on it, leads outside the workspace. */
  | 'outside'
  /** A file that commonly holds secrets (`.env`, keys, ...): hidden, as the sandbox hides it. */
  | 'secret'
  /** A protected path of a writable workspace (`.git`, agent and editor folders, ...). */
  | 'protected'
  /** A symbolic link where a write would go through it. */
  | 'symlink'
  /** A file with other hard links (writing it would write a file elsewhere too). */
  | 'linked'
  | 'not-regular'
  | 'not-directory'
  | 'too-large'
  /** The file changed between reading it and writing it. */
  | 'changed'
  /** The workspace is read-only. */
  | 'read-only'
  | 'unreadable';

export interface WorkspaceFailure {
  readonly ok: false;
  readonly problem: WorkspaceProblem;
  /** A message about the path; never holds file content. */
  readonly message: string;
}

/** What identifies a file's content between a read and a write (an edit checks it did not change). */
export interface WorkspaceFileIdentity {
  readonly device: number;
  readonly inode: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** An entry of a workspace folder. */
export interface WorkspaceEntry {
  /** Its path relative to the workspace (POSIX), as it was reached (links are not followed). */
  readonly path: string;
  readonly kind: EntryKind;
  /** Bytes, for a regular file (0 otherwise). */
  readonly size: number;
}

export type WorkspaceReadResult =
  | {
      readonly ok: true;
      /** The bytes read. They may live in a buffer the next read reuses: copy them to keep them. */
      readonly bytes: Uint8Array;
      /** The file's full size (more than `bytes` when only its start was read). */
      readonly size: number;
      readonly partial: boolean;
      readonly identity: WorkspaceFileIdentity;
    }
  | WorkspaceFailure;

export type WorkspaceListResult =
  | {
      readonly ok: true;
      /** Sorted by path; a folder's entries follow it when the listing is recursive. */
      readonly entries: readonly WorkspaceEntry[];
      /** Entries left out because they commonly hold secrets. */
      readonly hidden: number;
      /** True when the entry cap stopped the listing. */
      readonly truncated: boolean;
    }
  | WorkspaceFailure;

export type WorkspaceWriteResult =
  | { readonly ok: true; readonly created: boolean; readonly bytes: number }
  | WorkspaceFailure;

/**
 * The workspace as the host tools reach it: every path relative to its root, confined to it (no
 * `..`, no symbolic link out of it: opened, then what was opened is verified), its secret files
 * hidden as the sandbox hides them, and writes only to a writable workspace, never through a
 * link, to a file with other hard links, or to a protected path. The node entry makes one with
 * `createWorkspaceFiles(workspace)`.
 */
export interface WorkspaceFiles {
  /** The workspace's real path. */
  readonly root: string;
  readonly writable: boolean;
  /** Reads a regular file: at most `maxBytes` (its start, `partial`, when it is larger). */
  read(path: string, options: { readonly maxBytes: number }): WorkspaceReadResult;
  /**
   * Lists a folder ('' for the root): its entries, or with `depth` > 1 the tree below it to that
   * many levels (links listed, never followed; `.git` and package folders such as `node_modules`
   * not entered unless the listing starts in them), at most `maxEntries`.
   */
  list(
    path: string,
    options: { readonly maxEntries: number; readonly depth: number },
  ): WorkspaceListResult;
  /**
   * Whether a write to `path` would be refused, and why, without writing or making anything (so
   * that no one is asked about a write that cannot happen).
   */
  checkWrite(path: string): WorkspaceFailure | undefined;
  /**
   * Writes a file: creates it (and its missing folders) or replaces its content; with `expect`,
   * only while it is still the file `expect` describes (an edit of what was read).
   */
  write(
    path: string,
    bytes: Uint8Array,
    options: { readonly expect?: WorkspaceFileIdentity },
  ): WorkspaceWriteResult;
}
