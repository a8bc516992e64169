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
import { type AuditSink, countSkillUsage, parseAuditLog, type RecordedUsage } from '../core.js';

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
      if (policy === 'always' || (typeof policy === 'number' && unsynced >= policy)) {
        fsyncSync(descriptor);
        unsynced = 0;
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

/** How much of the end of the audit log `readSkillUsage` reads by default. */
export const USAGE_TAIL_BYTES = 4 * 1024 * 1024;

/**
 * The activations of each skill recorded in the last `maxBytes` of the audit log at `path`
 * (recent use is what counts; a missing log is no use): pass it as `CatalogOptions.usage`.
 */
export function readSkillUsage(
  path: string,
  maxBytes: number = USAGE_TAIL_BYTES,
): Map<string, RecordedUsage> {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return new Map();
  }
  try {
    const { size } = fstatSync(descriptor);
    const start = Math.max(0, size - maxBytes);
    const bytes = Buffer.alloc(size - start);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(descriptor, bytes, read, bytes.length - read, start + read);
      if (count === 0) break;
      read += count;
    }
    let text = bytes.subarray(0, read).toString('utf8');
    // Started in the middle of a record: begin at the next one.
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return countSkillUsage(parseAuditLog(text).records);
  } finally {
    closeSync(descriptor);
  }
}
