import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type AuditSink, countSkillUsage, parseAuditLog, type RecordedUsage } from '../core.js';
import { nextRotatedLogName, rotationLine, sortRotatedLogNames } from '../internal.js';
import { type JsonlSinkOptions, openJsonlAuditSink } from './audit-sink.js';
import { sha256 } from './hash.js';

/** The names in `folder`, none when it cannot be listed. */
function folderNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** The rotated logs of `path`, oldest first (by the time and counter in their names). */
export function rotatedAuditLogs(path: string): string[] {
  return sortRotatedLogNames(basename(path), folderNames(dirname(path))).map((name) =>
    join(dirname(path), name),
  );
}

/** Every file of the log at `path`, oldest first: the rotated ones, then the current one if it exists. */
export function auditLogFiles(path: string): string[] {
  return [...rotatedAuditLogs(path), ...(existsSync(path) ? [path] : [])];
}

/** A lock file beside the log while one process rotates it; a lock older than this is stale. */
const STALE_LOCK_MS = 30_000;

function takeLock(lock: string, now: Date): boolean {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = now.getTime() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age < STALE_LOCK_MS) return false;
      try {
        unlinkSync(lock);
      } catch {
        // Another process took it away first.
      }
    }
  }
  return false;
}

/**
 * Rotates the log at `path`: renames it to a dated name, starts the new file with a
 * `log-rotate` record linking it to the one renamed (size, SHA-256, open sessions), and
 * removes the oldest rotated logs past `keep`. One process rotates at a time (a lock file);
 * when another holds the lock, nothing is done. Returns whether it rotated.
 */
export function rotateAuditLog(path: string, keep: number, now: Date): boolean {
  const lock = `${path}.lock`;
  if (!takeLock(lock, now)) return false;
  try {
    const text = readFileSync(path, 'utf8');
    const folder = dirname(path);
    const current = basename(path);
    let target = join(folder, nextRotatedLogName(current, now, folderNames(folder)));
    // Nobody else rotates while the lock is held; a name taken all the same is passed over.
    while (existsSync(target))
      target = join(folder, nextRotatedLogName(current, now, [basename(target)]));
    const header = rotationLine(text, now.toISOString(), sha256);
    renameSync(path, target);
    const descriptor = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    try {
      writeSync(descriptor, header);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    const rotated = rotatedAuditLogs(path);
    for (const old of rotated.slice(0, Math.max(0, rotated.length - keep))) unlinkSync(old);
    return true;
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

/** The time of the last record of a log file, or undefined when it holds none. */
function lastTimestamp(path: string): string | undefined {
  const records = parseAuditLog(readFileSync(path, 'utf8')).records;
  return records.at(-1)?.timestamp;
}

/**
 * Removes the rotated logs of `path` whose every record is older than `before` (the current
 * log is never removed: its chain goes on). Returns the files removed, oldest first.
 */
export function pruneAuditLogs(path: string, before: Date): string[] {
  const removed: string[] = [];
  const limit = before.toISOString();
  for (const file of rotatedAuditLogs(path)) {
    const last = lastTimestamp(file);
    // Files are in time order: the first one with a newer record ends the pruning.
    if (last !== undefined && last >= limit) break;
    unlinkSync(file);
    removed.push(file);
  }
  return removed;
}

/**
 * The audit log as JSON Lines (see `openJsonlAuditSink`), rotated by size: past `maxBytes`
 * (default 16 MiB) the log is renamed with its date and a new one begins, linked to it, and
 * the `keep` newest (default 8) rotated logs are kept. `skillhost audit verify` follows the
 * chain across the files.
 */
export function createJsonlAuditSink(
  path: string,
  options: JsonlSinkOptions = {},
): AuditSink & { close(): void } {
  return openJsonlAuditSink(path, { rotate: rotateAuditLog, ...options });
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
