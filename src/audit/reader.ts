import { type AuditRecord, GENESIS_HASH, recordHash } from './trail.js';

export interface AuditLogProblem {
  /** 1-based line number in the log. */
  readonly line: number;
  readonly kind: 'torn' | 'malformed';
  readonly message: string;
}

export interface ParsedAuditLog {
  readonly records: readonly AuditRecord[];
  /** Line numbers of the records, in the same order. */
  readonly lines: readonly number[];
  readonly problems: readonly AuditLogProblem[];
}

function isRecord(value: unknown): value is AuditRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.v === 1 &&
    typeof record.session_id === 'string' &&
    typeof record.seq === 'number' &&
    typeof record.event === 'string' &&
    typeof record.timestamp === 'string' &&
    typeof record.prev_hash === 'string' &&
    typeof record.hash === 'string'
  );
}

/**
 * Reads a JSON Lines audit log. A last line without its line break (a write cut short by a
 * crash) is reported as torn and skipped; every earlier record still counts.
 */
export function parseAuditLog(text: string): ParsedAuditLog {
  const records: AuditRecord[] = [];
  const lines: number[] = [];
  const problems: AuditLogProblem[] = [];
  const parts = text.split('\n');
  const complete = text.endsWith('\n') || text === '';
  parts.forEach((line, index) => {
    const last = index === parts.length - 1;
    if (line === '' && (last || line.trim() === '')) return;
    if (last && !complete) {
      problems.push({
        line: index + 1,
        kind: 'torn',
        message: 'The last record was cut short (no line break at the end of the log)',
      });
      return;
    }
    try {
      const value = JSON.parse(line) as unknown;
      if (!isRecord(value)) throw new Error('not an audit record');
      records.push(value);
      lines.push(index + 1);
    } catch (error) {
      problems.push({
        line: index + 1,
        kind: 'malformed',
        message: `Not a valid audit record: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  });
  return { records, lines, problems };
}

export interface SessionVerdict {
  readonly session: string;
  readonly records: number;
  readonly first: string | undefined;
  readonly last: string | undefined;
  /** True when every record chains to the one before, nothing is missing, and the session ended. */
  readonly intact: boolean;
  readonly ended: boolean;
  readonly problems: readonly string[];
}

/** Records of one session in log order, each with where it is ("line 4", "audit.jsonl:4"). */
export interface PlacedRecord {
  readonly record: AuditRecord;
  readonly place: string;
}

/**
 * One session's chain: sequence numbers without gaps (from `head`, where its chain stood when
 * its earlier records went with a rotated log, else from 1), each `prev_hash` equal to the
 * previous record's hash, each hash recomputed, and a closing `session-end`.
 */
export function checkSessionChain(
  session: string,
  entries: readonly PlacedRecord[],
  head: { readonly seq: number; readonly hash: string } | undefined,
  hash: (bytes: Uint8Array) => string,
): SessionVerdict {
  const problems: string[] = [];
  let previous = head?.hash ?? GENESIS_HASH;
  let expected = (head?.seq ?? 0) + 1;
  for (const { record, place } of entries) {
    if (record.seq !== expected) {
      problems.push(
        `${place}: sequence ${record.seq} where ${expected} was expected (records missing or reordered)`,
      );
      expected = record.seq;
    }
    if (record.prev_hash !== previous)
      problems.push(`${place}: does not chain to the record before it`);
    if (recordHash(record, hash) !== record.hash)
      problems.push(`${place}: its content does not match its hash (altered)`);
    previous = record.hash;
    expected += 1;
  }
  const ended = entries.at(-1)?.record.event === 'session-end';
  if (!ended)
    problems.push('the session has no session-end record (still running, crashed, or cut short)');
  return {
    session,
    records: entries.length,
    first: entries[0]?.record.timestamp,
    last: entries.at(-1)?.record.timestamp,
    intact: problems.length === 0,
    ended,
    problems,
  };
}

/**
 * Checks each session's chain (`checkSessionChain`). Altered, removed, reordered or forged
 * records, and a log cut short, all show. A log that was rotated begins with a log-rotate
 * record: the sessions open at the rotation continue from the heads it holds
 * (`verifyAuditFiles` checks the files together).
 */
export function verifyAuditLog(
  log: ParsedAuditLog,
  hash: (bytes: Uint8Array) => string,
): SessionVerdict[] {
  const sessions = new Map<string, PlacedRecord[]>();
  const first = log.records[0];
  const heads =
    first?.event === 'log-rotate'
      ? ((first.details as { sessions?: Record<string, { seq: number; hash: string }> }).sessions ??
        {})
      : {};
  log.records.forEach((record, index) => {
    if (record.event === 'log-rotate') return;
    const list = sessions.get(record.session_id) ?? [];
    list.push({ record, place: `line ${log.lines[index] as number}` });
    sessions.set(record.session_id, list);
  });
  return [...sessions].map(([session, entries]) =>
    checkSessionChain(
      session,
      entries,
      Object.hasOwn(heads, session) ? heads[session] : undefined,
      hash,
    ),
  );
}
