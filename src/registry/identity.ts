import type { FileStatus } from '../deps.js';

/** What identifies a file's version: any change to it changes one of these. */
export interface FileIdentity {
  readonly device: number;
  readonly inode: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** The identity part of a file status. */
export function identityOf(status: FileStatus): FileIdentity {
  return {
    device: status.device,
    inode: status.inode,
    size: status.size,
    mtimeMs: status.mtimeMs,
    ctimeMs: status.ctimeMs,
  };
}

/** True when both are known and name the same version of the same file. */
export function sameIdentity(
  a: FileIdentity | undefined,
  b: FileStatus | FileIdentity | undefined,
): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.inode === b.inode &&
    a.device === b.device &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs
  );
}
