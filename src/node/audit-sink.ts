import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { AuditSink } from '../core.js';

/** Default size an audit log may reach before it is rotated: 16 MiB. */
export const DEFAULT_AUDIT_MAX_BYTES = 16 * 1024 * 1024;
/** Default number of rotated audit logs kept besides the current one. */
export const DEFAULT_AUDIT_KEEP = 8;

export interface JsonlSinkOptions {
  /** When to flush to disk: after every record (`always`, default), never, or every N records. */
  readonly fsync?: 'always' | 'never' | number;
  /**
   * The size the log may reach (default 16 MiB); a record that would take it past is written
   * to a new file, the full one renamed with its date (see `rotateAuditLog`). 0: never rotate.
   */
  readonly maxBytes?: number;
  /** How many rotated logs are kept (default 8); older ones are removed. */
  readonly keep?: number;
  /** The clock for rotated file names (default: the system's). */
  readonly now?: () => Date;
  /**
   * What rotates a full log (`rotateAuditLog` of `skillhost/node`, which `createJsonlAuditSink`
   * there passes); without it the log is never rotated. Kept apart so that this file loads no
   * library code: the command line's start-up imports it.
   */
  readonly rotate?: (path: string, keep: number, now: Date) => boolean;
}

/**
 * The audit log as JSON Lines: opened for appending, never through a symbolic link, only as a
 * regular file, readable by the user alone; each record is written with one `write` call, so
 * concurrent writers never interleave within a record. Any failure throws, and the trail turns
 * that into AUDIT_UNAVAILABLE.
 */
export function openJsonlAuditSink(
  path: string,
  options: JsonlSinkOptions = {},
): AuditSink & { close(): void } {
  let fd: number | undefined;
  /** The inode of the file `fd` is: another process's rotation makes `path` another file. */
  let inode = 0;
  let unsynced = 0;
  /** Inside `group`: the flush waits for its end. */
  let grouped = false;
  const maxBytes = options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
  const keep = options.keep ?? DEFAULT_AUDIT_KEEP;
  const now = options.now ?? (() => new Date());
  /** A line break to put before the next record, when the log ends in a torn record. */
  let pending = '';
  const policy = options.fsync ?? 'always';
  const open = (): number => {
    if (fd !== undefined) return fd;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const descriptor = openSync(
      path,
      constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    const status = fstatSync(descriptor);
    if (!status.isFile()) {
      closeSync(descriptor);
      throw new Error(`${path} is not a regular file`);
    }
    // A crash mid-write leaves a record without its line break: end it, so that the next record
    // starts a line of its own (the reader reports the torn one and keeps the rest).
    if (status.size > 0) {
      const last = Buffer.alloc(1);
      readSync(descriptor, last, 0, 1, status.size - 1);
      if (last[0] !== 0x0a) pending = '\n';
    }
    fd = descriptor;
    inode = status.ino;
    return descriptor;
  };
  const reopen = () => {
    if (fd !== undefined) {
      if (unsynced > 0 && policy !== 'never') fsyncSync(fd);
      closeSync(fd);
    }
    fd = undefined;
    unsynced = 0;
  };
  /** Before a record: follow a rotation made elsewhere, or rotate when the record would not fit. */
  const rotateIfFull = (size: number) => {
    const rotate = options.rotate;
    if (maxBytes <= 0 || rotate === undefined) return;
    const status = statSync(path, { throwIfNoEntry: false });
    if (fd !== undefined && (status === undefined || status.ino !== inode)) {
      reopen();
      return;
    }
    if (status === undefined || status.size === 0 || status.size + size <= maxBytes) return;
    reopen();
    rotate(path, keep, now());
  };
  return {
    write(line) {
      rotateIfFull(Buffer.byteLength(line, 'utf8') + 1);
      const descriptor = open();
      const bytes = Buffer.from(pending + line, 'utf8');
      const written = writeSync(descriptor, bytes, 0, bytes.length);
      if (written !== bytes.length)
        throw new Error(`short write to ${path} (${written} of ${bytes.length} bytes)`);
      pending = '';

      unsynced += 1;
      if (grouped) return;
      if (policy === 'always' || (typeof policy === 'number' && unsynced >= policy)) {
        fsyncSync(descriptor);
        unsynced = 0;
      }
    },
    group(records) {
      if (grouped) return records();
      grouped = true;
      try {
        return records();
      } finally {
        grouped = false;
        if (fd !== undefined && unsynced > 0 && policy !== 'never') {
          fsyncSync(fd);
          unsynced = 0;
        }
      }
    },
    close() {
      if (fd === undefined) return;
      if (unsynced > 0 && policy !== 'never') fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
    },
  };
}

/** Reads an audit log as text (empty when it does not exist yet). */
export function readAuditLogFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return '';
    throw error;
  }
}
