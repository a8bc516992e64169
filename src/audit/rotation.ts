import {
  type AuditLogProblem,
  checkSessionChain,
  type ParsedAuditLog,
  type PlacedRecord,
  parseAuditLog,
  type SessionVerdict,
} from './reader.js';
import { type AuditRecord, GENESIS_HASH, recordHash, serializeRecord } from './trail.js';

/**
 * A rotated audit log stays one verifiable chain. Each file after the first begins with a
 * `log-rotate` record of the pseudo-session `log`: it holds the SHA-256 and size of the file
 * before it, and the last sequence number and hash of every session still open there, and it
 * chains to the `log-rotate` record of that file. A file removed from the middle, altered or
 * swapped shows; the oldest files may go (kept count, `audit prune`) and the chains of the
 * sessions still open then continue from the heads the oldest remaining file records.
 */
export const ROTATION_SESSION = 'log';

type Hasher = (bytes: Uint8Array) => string;

const STAMP = /^(\d{8}T\d{9}Z)(?:-(\d+))?$/;

function nameParts(name: string): { readonly stem: string; readonly extension: string } {
  const dot = name.lastIndexOf('.');
  return dot <= 0
    ? { stem: name, extension: '' }
    : { stem: name.slice(0, dot), extension: name.slice(dot) };
}

/** The time of a rotation as its log's name holds it: 20260501T102233123Z. */
function stampOf(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

/**
 * The name a log named `current` is rotated to at `date`: `audit.jsonl` becomes
 * `audit.20260501T102233123Z.jsonl`, with `-2`, `-3` … for later rotations in the same
 * millisecond (see `nextRotatedLogName`), so that the rotated logs sort by time.
 */
function rotatedLogName(current: string, date: Date, counter = 1): string {
  const { stem, extension } = nameParts(current);
  return `${stem}.${stampOf(date)}${counter > 1 ? `-${counter}` : ''}${extension}`;
}

/**
 * The name the log named `current` is rotated to at `date`, the file names of its folder being
 * `names`: a counter past that of every rotated log of the same millisecond, so that the newest
 * sorts last even when older ones of that millisecond were pruned (the first free name would be
 * one of theirs, sorting first).
 */
export function nextRotatedLogName(current: string, date: Date, names: readonly string[]): string {
  const stamp = stampOf(date);
  let counter = 0;
  for (const name of names) {
    const rotation = rotationOf(current, name);
    if (rotation !== undefined && rotation.stamp === stamp && rotation.counter > counter)
      counter = rotation.counter;
  }
  return rotatedLogName(current, date, counter + 1);
}

/** The time and counter in the name of a rotated log of `current`; undefined for another name. */
function rotationOf(
  current: string,
  candidate: string,
): { readonly stamp: string; readonly counter: number } | undefined {
  const { stem, extension } = nameParts(current);
  if (!candidate.startsWith(`${stem}.`) || !candidate.endsWith(extension)) return undefined;
  const match = STAMP.exec(candidate.slice(stem.length + 1, candidate.length - extension.length));
  if (match === null) return undefined;
  return { stamp: match[1] as string, counter: match[2] === undefined ? 1 : Number(match[2]) };
}

/**
 * The rotated logs of the log named `current` among `names`, oldest first: by the time in
 * their names, then by the counter of rotations made in the same millisecond (none, `-2`, …,
 * `-10`). Sorted as text, `audit.…123Z-2.jsonl` would come before `audit.…123Z.jsonl`, and a
 * log rotated twice in one millisecond would seem out of order (and the newer one pruned).
 */
export function sortRotatedLogNames(current: string, names: readonly string[]): string[] {
  const rotated: Array<{
    readonly name: string;
    readonly stamp: string;
    readonly counter: number;
  }> = [];
  for (const name of names) {
    const rotation = rotationOf(current, name);
    if (rotation !== undefined) rotated.push({ name, ...rotation });
  }
  rotated.sort((a, b) =>
    a.stamp !== b.stamp ? (a.stamp < b.stamp ? -1 : 1) : a.counter - b.counter,
  );
  return rotated.map((log) => log.name);
}
const encoder = new TextEncoder();

/** Where a session's chain stood: its last sequence number and hash. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

/** What a `log-rotate` record says about the file before it. */
export interface RotationDetails {
  readonly previous_bytes: number;
  readonly previous_sha256: string;
  readonly sessions: Readonly<Record<string, ChainHead>>;
}

function isRotation(record: AuditRecord): boolean {
  return record.event === 'log-rotate' && record.session_id === ROTATION_SESSION;
}

/** The heads of the sessions not ended in these records, starting from `from` (a file's header). */
export function openHeads(
  records: readonly AuditRecord[],
  from: Readonly<Record<string, ChainHead>> = {},
): Record<string, ChainHead> {
  const heads: Record<string, ChainHead> = { ...from };
  for (const record of records) {
    if (isRotation(record)) continue;
    if (record.event === 'session-end') delete heads[record.session_id];
    else heads[record.session_id] = { seq: record.seq, hash: record.hash };
  }
  return heads;
}

/**
 * The first line of the file that follows `previous` (the text of the file just rotated): its
 * size and SHA-256, the heads of its open sessions, chained to its own `log-rotate` record.
 */
export function rotationLine(previous: string, timestamp: string, hash: Hasher): string {
  const log = parseAuditLog(previous);
  const header =
    log.records[0] !== undefined && isRotation(log.records[0]) ? log.records[0] : undefined;
  const fromHeader = (header?.details as { sessions?: Record<string, ChainHead> } | undefined)
    ?.sessions;
  const bytes = encoder.encode(previous);
  const body = {
    v: 1 as const,
    session_id: ROTATION_SESSION,
    seq: (header?.seq ?? 0) + 1,
    timestamp,
    event: 'log-rotate' as const,
    skill_name: null,
    source: null,
    content_hash: null,
    triggered_by: null,
    loaded_files: [],
    tool_or_script_calls: [],
    error: null,
    details: {
      previous_bytes: bytes.length,
      previous_sha256: hash(bytes),
      sessions: openHeads(log.records, fromHeader ?? {}),
    } satisfies RotationDetails,
    prev_hash: header?.hash ?? GENESIS_HASH,
  };
  return `${serializeRecord({ ...body, hash: recordHash(body, hash) })}\n`;
}

/** One file of a rotated log, oldest first; `name` is how problems refer to it. */
export interface AuditLogFile {
  readonly name: string;
  readonly text: string;
}

export interface FileProblem extends AuditLogProblem {
  readonly file: string;
}

export interface SessionChain extends SessionVerdict {
  /** True when its first records are in a file no longer kept (its chain starts from a head). */
  readonly continued: boolean;
}

export interface AuditFilesVerdict {
  readonly intact: boolean;
  readonly records: number;
  /** Problems of the files themselves: torn or malformed lines, broken links between files. */
  readonly problems: readonly FileProblem[];
  readonly sessions: readonly SessionChain[];
}

/**
 * Checks a log kept in several files, oldest first (a single file is a log of one): every
 * line, each file's link to the one before (size, SHA-256, the `log-rotate` chain), and each
 * session's chain across the files. Altered, removed, reordered or forged records, a file taken
 * out of the middle, and a log cut short all show.
 */
export function verifyAuditFiles(files: readonly AuditLogFile[], hash: Hasher): AuditFilesVerdict {
  const problems: FileProblem[] = [];
  const parsed: Array<{ readonly file: AuditLogFile; readonly log: ParsedAuditLog }> = files.map(
    (file) => ({ file, log: parseAuditLog(file.text) }),
  );
  for (const { file, log } of parsed)
    for (const problem of log.problems) problems.push({ ...problem, file: file.name });
  let previousHeader: AuditRecord | undefined;
  let starting: Readonly<Record<string, ChainHead>> = {};
  parsed.forEach(({ file, log }, index) => {
    const first = log.records[0];
    const header = first !== undefined && isRotation(first) ? first : undefined;
    const problem = (message: string) =>
      problems.push({ file: file.name, line: log.lines[0] ?? 1, kind: 'malformed', message });
    if (header === undefined) {
      if (index > 0)
        problem(
          'the file does not begin with a log-rotate record linking it to the file before it',
        );
      previousHeader = undefined;
      return;
    }
    if (recordHash(header, hash) !== header.hash)
      problem('its log-rotate record does not match its hash (altered)');
    const details = header.details as Partial<RotationDetails>;
    if (index === 0) {
      // The files before it are no longer kept: the open sessions continue from its heads.
      starting = details.sessions ?? {};
    } else {
      const before = encoder.encode((parsed[index - 1] as { file: AuditLogFile }).file.text);
      const length = details.previous_bytes ?? -1;
      if (
        length > before.length ||
        hash(before.subarray(0, Math.max(0, length))) !== details.previous_sha256
      )
        problem(
          `the file before it (${(parsed[index - 1] as { file: AuditLogFile }).file.name}) is not the one it was rotated from: altered, replaced, or a file is missing between them`,
        );
      if (previousHeader !== undefined && header.prev_hash !== previousHeader.hash)
        problem('its log-rotate record does not chain to the one of the file before it');
      if (previousHeader !== undefined && header.seq !== previousHeader.seq + 1)
        problem(
          `log-rotate ${header.seq} follows log-rotate ${previousHeader.seq}: a rotation is missing`,
        );
      if (previousHeader === undefined && index > 1)
        problem('its log-rotate record follows a file without one');
    }
    previousHeader = header;
  });
  const bySession = new Map<string, PlacedRecord[]>();
  let count = 0;
  for (const { file, log } of parsed) {
    log.records.forEach((record, index) => {
      count += 1;
      if (isRotation(record)) return;
      const list = bySession.get(record.session_id) ?? [];
      list.push({ record, place: `${file.name}:${log.lines[index] as number}` });
      bySession.set(record.session_id, list);
    });
  }
  const sessions: SessionChain[] = [...bySession].map(([session, entries]) => {
    const head = Object.hasOwn(starting, session) ? starting[session] : undefined;
    return { ...checkSessionChain(session, entries, head, hash), continued: head !== undefined };
  });
  return {
    intact: problems.length === 0 && sessions.every((session) => session.intact),
    records: count,
    problems,
    sessions,
  };
}
