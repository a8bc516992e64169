import { type ParsedAuditLog, parseAuditLog } from '../audit/reader.js';
import {
  type AuditEventName,
  type AuditRecord,
  type AuditSink,
  MemoryAuditSink,
} from '../audit/trail.js';

/** An audit sink that keeps every line in memory and reads them back as records. */
export interface RecordingAuditSink extends AuditSink {
  /** The lines written, each ending with a line break. */
  readonly lines: readonly string[];
  /** All lines as one JSON Lines text. */
  readonly text: string;
  /** The records written so far, parsed. */
  records(): AuditRecord[];
  /** The event name of each record, in order. */
  events(): AuditEventName[];
  /** The whole log as the reader sees it: records, their line numbers, problems. */
  parsed(): ParsedAuditLog;
  /** Makes every later write throw (a full disk): capabilities must then fail closed. */
  fail(message?: string): void;
  /** Undoes `fail`. */
  repair(): void;
}

class RecordingSink extends MemoryAuditSink implements RecordingAuditSink {
  #failure: string | undefined;

  override write(line: string): void {
    if (this.#failure !== undefined) throw new Error(this.#failure);
    super.write(line);
  }

  parsed(): ParsedAuditLog {
    return parseAuditLog(this.text);
  }

  records(): AuditRecord[] {
    return [...this.parsed().records];
  }

  events(): AuditEventName[] {
    return this.records().map((record) => record.event);
  }

  fail(message = 'the audit sink is broken'): void {
    this.#failure = message;
  }

  repair(): void {
    this.#failure = undefined;
  }
}

/**
 * An in-memory audit sink for tests: pass it as `audit.sink`, then look at `records()` or
 * `events()`; `fail()` simulates a log that can no longer be written.
 *
 * @example const sink = createRecordingAuditSink(); ...; expect(sink.events()).toContain('script-run');
 */
export function createRecordingAuditSink(): RecordingAuditSink {
  return new RecordingSink();
}
