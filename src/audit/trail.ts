import type { Code } from '../codes.js';
import { SkillhostError } from '../errors.js';

/** Event names are noun-verb. */
export type AuditEventName =
  | 'session-start'
  | 'session-end'
  | 'skill-discover'
  | 'skill-activate'
  | 'resource-read'
  | 'resource-list'
  | 'script-run'
  | 'tool-call'
  | 'permission-decide'
  | 'permission-approve'
  | 'environment-setup'
  | 'agent-start'
  | 'agent-end'
  | 'model-request'
  | 'model-switch'
  | 'context-compact'
  | 'skill-install'
  | 'skill-update'
  | 'skill-remove'
  | 'log-rotate'
  | 'log-prune';

export type AuditTrigger = 'model' | 'user' | 'router';

/** One tool or script call, as recorded. */
export interface AuditCall {
  readonly tool?: string;
  readonly script?: string;
  readonly args?: readonly string[];
  readonly decision?: string;
  readonly exit_code?: number | null;
  readonly signal?: string | null;
  readonly duration_ms?: number;
  readonly sandbox?: string;
  /**
   * In a permission record (`permission-decide`, `permission-approve`): the model's id of the
   * tool call the decision was about, when the caller gave it (`callTool`'s `callId`).
   */
  readonly tool_call_id?: string;
  readonly [key: string]: unknown;
}

/** What a caller says about an event; the trail adds the session, order, time and chain. */
export interface AuditEventInput {
  readonly event: AuditEventName;
  readonly skill_name?: string | null;
  readonly source?: string | null;
  /** The skill's version: SHA-256 of its SKILL.md (or of the script, for a script run). */
  readonly content_hash?: string | null;
  readonly triggered_by?: AuditTrigger | null;
  readonly loaded_files?: readonly string[];
  readonly tool_or_script_calls?: readonly AuditCall[];
  readonly error?: { readonly code: Code; readonly message: string } | null;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A record as written: the observability fields plus session id, sequence number and hash chain. */
export interface AuditRecord {
  readonly v: 1;
  readonly session_id: string;
  readonly seq: number;
  readonly timestamp: string;
  readonly event: AuditEventName;
  readonly skill_name: string | null;
  readonly source: string | null;
  readonly content_hash: string | null;
  readonly triggered_by: AuditTrigger | null;
  readonly loaded_files: readonly unknown[];
  readonly tool_or_script_calls: readonly unknown[];
  readonly error: { readonly code: string; readonly message: unknown } | null;
  readonly details: Readonly<Record<string, unknown>>;
  /** The hash of the previous record of the session (64 zeros for the first). */
  readonly prev_hash: string;
  /** SHA-256 of `prev_hash` followed by this record without `hash`. */
  readonly hash: string;
}

/** Where records go: one call per record, throwing when the record could not be written. */
export interface AuditSink {
  write(line: string): void;
  /**
   * Runs `records` (which writes several records) with their flushes to disk made once, at its
   * end, before it returns (optional: a sink without it flushes as it always does). For records
   * with nothing done between them: a session's start and what its sources hold.
   */
  group?<T>(records: () => T): T;
}

export const GENESIS_HASH = '0'.repeat(64);
const MAX_STRING = 4096;
const MAX_ITEMS = 200;

const secretPatterns: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    'private-key',
  ],
  [/\bAKIA[0-9A-Z]{16}\b/g, 'aws-access-key'],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{20,}/g, 'github-token'],
  [/\bsk-ant-[A-Za-z0-9_-]{16,}/g, 'anthropic-key'],
  [/\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g, 'openai-key'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, 'slack-token'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, 'jwt'],
  [/\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi, 'bearer-token'],
  [
    /\b((?:password|passwd|secret|token|api[_-]?key|access[_-]?key)["']?\s*[=:]\s*["']?)[^\s"',;]{6,}/gi,
    'credential',
  ],
];

/** Every secret pattern holds one of these: one pass over a value rules most values out. */
const secretHint =
  /PRIVATE KEY|AKIA|gh[pousr]_|github_pat_|sk-|xox[abprs]-|eyJ|bearer|passw|secret|token|api[_-]?key|access[_-]?key/i;

/** Replaces secrets it recognises (keys, tokens, private keys, credentials) with a marker. */
export function redactSecrets(text: string): string {
  if (!secretHint.test(text)) return text;
  let result = text;

  for (const [pattern, kind] of secretPatterns) {
    result = result.replace(pattern, (match: string, prefix?: unknown) =>
      typeof prefix === 'string' && prefix.length > 0 && match.startsWith(prefix)
        ? `${prefix}[REDACTED:${kind}]`
        : `[REDACTED:${kind}]`,
    );
  }
  return result;
}

type Hasher = (bytes: Uint8Array) => string;
const encoder = new TextEncoder();

/** Redacts, then caps long strings (keeping the hash of the full value) and long lists, recursively. */
function sanitize(value: unknown, hash: Hasher, depth = 0): unknown {
  if (typeof value === 'string') {
    const clean = redactSecrets(value);
    if (clean.length <= MAX_STRING) return clean;
    return {
      truncated: true,
      head: clean.slice(0, MAX_STRING),
      length: clean.length,
      sha256: hash(encoder.encode(clean)),
    };
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth > 8) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => sanitize(item, hash, depth + 1));
    if (value.length > MAX_ITEMS) items.push({ truncated_items: value.length - MAX_ITEMS });
    return items;
  }
  if (typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item !== undefined) result[key.slice(0, 100)] = sanitize(item, hash, depth + 1);
    }
    return result;
  }
  return String(value);
}

/**
 * Characters that some common line reader treats as a line break and JSON leaves raw: NEL
 * (Python's `splitlines()`), and the line and paragraph separators. JSON itself escapes CR, LF
 * and every other C0 control (`\v`, `\f`, `\x1c`-`\x1e` included).
 */
const rawBreaks = /[\u0085\u2028\u2029]/g;

/** JSON for one line, whatever reads it: every character any common reader splits on is escaped. */
export function serializeRecord(record: object): string {
  return JSON.stringify(record).replace(
    rawBreaks,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The hash a record must carry: SHA-256 over the previous hash and the record without `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> | AuditRecord, hash: Hasher): string {
  const { hash: _ignored, ...body } = record as AuditRecord;
  return hash(encoder.encode(`${record.prev_hash}${serializeRecord(body)}`));
}

export interface AuditTrailOptions {
  readonly sink: AuditSink;
  /** SHA-256 as hex (the node entry's `sha256`). */
  readonly hash: Hasher;
  /** The current time (injected; the library never reads the clock itself). */
  readonly now: () => Date;
  readonly sessionId: string;
}

/**
 * One session's audit trail: every record gets the session id, the next sequence number, the
 * time and the hash of the previous record, is redacted and capped, and is written with one
 * call to the sink. A failed write throws AUDIT_UNAVAILABLE, so that capabilities that need the
 * trail fail closed.
 */
export class AuditTrail {
  readonly #options: AuditTrailOptions;
  #seq = 0;
  #previous = GENESIS_HASH;
  #closed = false;

  constructor(options: AuditTrailOptions) {
    this.#options = options;
  }

  get sessionId(): string {
    return this.#options.sessionId;
  }

  /** Records one event; returns the record as written. */
  record(input: AuditEventInput): AuditRecord {
    if (this.#closed) throw new SkillhostError('AUDIT_UNAVAILABLE', 'The audit session is closed');
    const { hash } = this.#options;
    const seq = this.#seq + 1;
    const body = {
      v: 1 as const,
      session_id: this.#options.sessionId,
      seq,
      timestamp: this.#options.now().toISOString(),
      event: input.event,
      skill_name: (sanitize(input.skill_name ?? null, hash) as string | null) ?? null,
      source: (sanitize(input.source ?? null, hash) as string | null) ?? null,
      content_hash: input.content_hash ?? null,
      triggered_by: input.triggered_by ?? null,
      loaded_files: sanitize(input.loaded_files ?? [], hash) as unknown[],
      tool_or_script_calls: sanitize(input.tool_or_script_calls ?? [], hash) as unknown[],
      error:
        input.error === undefined || input.error === null
          ? null
          : { code: input.error.code, message: sanitize(input.error.message, hash) },
      details: sanitize(input.details ?? {}, hash) as Record<string, unknown>,
      prev_hash: this.#previous,
    };
    // Serialised once: the hash covers the body's JSON, and `hash` is the record's last key.
    const json = serializeRecord(body);
    const digest = hash(encoder.encode(`${body.prev_hash}${json}`));
    const record: AuditRecord = { ...body, hash: digest };
    try {
      this.#options.sink.write(`${json.slice(0, -1)},"hash":"${digest}"}\n`);
    } catch (error) {
      throw new SkillhostError(
        'AUDIT_UNAVAILABLE',
        `The audit log cannot be written: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    this.#seq = seq;
    this.#previous = record.hash;
    return record;
  }

  /** Records the end of the session, so that a log cut short afterwards is noticed. */
  close(details: Readonly<Record<string, unknown>> = {}): void {
    if (this.#closed) return;
    this.record({ event: 'session-end', details });
    this.#closed = true;
  }
}

/** A sink that keeps lines in memory (tests, embedding). */
export class MemoryAuditSink implements AuditSink {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  get text(): string {
    return this.lines.join('');
  }
}
