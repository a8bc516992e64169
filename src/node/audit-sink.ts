import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { AuditSink } from '../core.js';

export interface JsonlSinkOptions {
  /** When to flush to disk: after every record (`always`, default), never, or every N records. */
  readonly fsync?: 'always' | 'never' | number;
}

/**
 * The audit log as JSON Lines: opened for appending, never through a symbolic link, only as a
 * regular file, readable by the user alone; each record is written with one `write` call, so
 * concurrent writers never interleave within a record. Any failure throws, and the trail turns
 * that into AUDIT_UNAVAILABLE.
 */
export function createJsonlAuditSink(
  path: string,
  options: JsonlSinkOptions = {},
): AuditSink & { close(): void } {
  let fd: number | undefined;
  let unsynced = 0;
  /** Inside `group`: the flush waits for its end. */
  let grouped = false;
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
    return descriptor;
  };
  return {
    write(line) {
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
