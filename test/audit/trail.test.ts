import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAuditLog, verifyAuditLog } from '../../src/audit/reader.js';
import {
  type AuditRecord,
  AuditTrail,
  MemoryAuditSink,
  redactSecrets,
} from '../../src/audit/trail.js';
import { createJsonlAuditSink } from '../../src/node/audit-files.js';
import { readAuditLogFile } from '../../src/node/audit-sink.js';
import { sha256 } from '../../src/node/hash.js';
import { tempDir } from '../helpers/temp.js';

const clock = () => new Date('2026-11-30T10:00:00.000Z');

function trail(sink = new MemoryAuditSink(), sessionId = 'session-1') {
  return { sink, trail: new AuditTrail({ sink, hash: sha256, now: clock, sessionId }) };
}

/** A closed session of a few records, as JSONL text. */
function sessionText(sessionId = 'session-1'): string {
  const { sink, trail: audit } = trail(new MemoryAuditSink(), sessionId);
  audit.record({ event: 'session-start' });
  audit.record({
    event: 'skill-activate',
    skill_name: 'demo',
    source: 'project',
    content_hash: 'f'.repeat(64),
    triggered_by: 'model',
    loaded_files: ['SKILL.md'],
  });
  audit.record({ event: 'resource-read', skill_name: 'demo', loaded_files: ['references/a.md'] });
  audit.close();
  return sink.text;
}

const verify = (text: string) => {
  const log = parseAuditLog(text);
  return { log, verdicts: verifyAuditLog(log, sha256) };
};

describe('the audit trail', () => {
  it('records the observability fields plus session, sequence and a hash chain', () => {
    const text = sessionText();
    const { log, verdicts } = verify(text);
    expect(log.records.map((record) => [record.seq, record.event])).toEqual([
      [1, 'session-start'],
      [2, 'skill-activate'],
      [3, 'resource-read'],
      [4, 'session-end'],
    ]);
    const activation = log.records[1] as AuditRecord;
    for (const field of [
      'skill_name',
      'source',
      'content_hash',
      'triggered_by',
      'loaded_files',
      'tool_or_script_calls',
      'error',
      'timestamp',
      'session_id',
      'seq',
      'prev_hash',
      'hash',
    ]) {
      expect(activation).toHaveProperty(field);
    }
    expect(activation.prev_hash).toBe(log.records[0]?.hash);
    expect(verdicts).toEqual([expect.objectContaining({ session: 'session-1', intact: true })]);
  });

  it('detects altered, removed, reordered and forged records and a log cut short', () => {
    const lines = sessionText().trimEnd().split('\n');
    const join_ = (parts: string[]) => `${parts.join('\n')}\n`;
    const altered = [...lines];
    altered[2] = (altered[2] as string).replace('references/a.md', 'references/b.md');
    const removed = lines.filter((_, index) => index !== 1);
    const reordered = [lines[0], lines[2], lines[1], lines[3]] as string[];
    const forgedRecord = { ...JSON.parse(lines[2] as string), loaded_files: ['secret'] };
    const forged = [...lines];
    forged[2] = JSON.stringify(forgedRecord);
    const cut = lines.slice(0, 3);
    for (const [name, text] of [
      ['altered', join_(altered)],
      ['removed', join_(removed)],
      ['reordered', join_(reordered)],
      ['forged', join_(forged)],
      ['cut short', join_(cut)],
    ] as const) {
      const { verdicts } = verify(text);
      expect(verdicts[0]?.intact, name).toBe(false);
      expect(verdicts[0]?.problems.length, name).toBeGreaterThan(0);
    }
  });

  it('escapes what could forge a line for any reader: line breaks, controls, NEL, U+2028/9', () => {
    const { sink, trail: audit } = trail();
    const hostile =
      'x"}\n{"v":1,"session_id":"forged"}\r\u0000\u001b[31m\u2028\u2029\u000b\u000c\u001c\u001d\u001e\u0085';
    audit.record({
      event: 'script-run',
      skill_name: hostile,
      loaded_files: [hostile],
      tool_or_script_calls: [{ script: 'scripts/a.sh', args: [hostile] }],
      error: { code: 'INTERNAL_ERROR', message: hostile },
    });
    audit.close();
    expect(sink.lines).toHaveLength(2);
    for (const line of sink.lines) {
      expect(line.endsWith('\n')).toBe(true);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that no raw controls remain
      expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u0085\u2028\u2029]/);
    }
    // Every line reader splits it into exactly its records: JavaScript's, and Python's
    // splitlines(), which also breaks at \v, \f, \x1c-\x1e, NEL and U+2028/9.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters readers split on
    expect(sink.text.split(/\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/).length - 1).toBe(2);
    const python = spawnSync(
      'python3',
      ['-c', 'import sys; print(len(sys.stdin.read().splitlines()))'],
      {
        input: sink.text,
        encoding: 'utf8',
      },
    );
    if (python.status === 0) expect(python.stdout.trim()).toBe('2');
    const { log, verdicts } = verify(sink.text);
    expect(log.records).toHaveLength(2);
    expect(log.records[0]?.skill_name).toBe(hostile);
    expect(verdicts[0]?.intact).toBe(true);
  });

  it('caps long values and keeps the hash of the full value', () => {
    const { sink, trail: audit } = trail();
    const long = 'a'.repeat(100_000);
    const many = Array.from({ length: 1000 }, (_, index) => `file-${index}`);
    const record = audit.record({ event: 'resource-read', loaded_files: [long, ...many] });
    expect(sink.text.length).toBeLessThan(30_000);
    const first = record.loaded_files[0] as { truncated: boolean; length: number; sha256: string };
    expect(first).toMatchObject({ truncated: true, length: 100_000 });
    expect(first.sha256).toBe(sha256(new TextEncoder().encode(long)));
    expect(record.loaded_files.at(-1)).toEqual({ truncated_items: 801 });
  });

  it('redacts secrets it recognises', () => {
    const secrets = [
      'AKIAIOSFODNN7EXAMPLE',
      'ghp_0123456789abcdefghijABCDEFGHIJ012345',
      'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
      'sk-proj-abcdefghijklmnopqrstuvwxyz0123',
      'xoxb-1234567890-abcdefghij',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
    ];
    for (const secret of secrets) {
      const redacted = redactSecrets(`value ${secret} end`);
      expect(redacted, secret).not.toContain(secret.slice(8, 20));
      expect(redacted).toContain('[REDACTED:');
      expect(redacted).toContain('end');
    }
    expect(redactSecrets('--password=hunter2hunter2 --x')).toBe(
      '--password=[REDACTED:credential] --x',
    );
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnop0123')).toBe(
      'Authorization: Bearer [REDACTED:bearer-token]',
    );
    expect(redactSecrets('git status --short')).toBe('git status --short');
    const { trail: audit } = trail();
    const record = audit.record({
      event: 'script-run',
      tool_or_script_calls: [{ script: 'scripts/a.sh', args: ['--token', 'token=abcdefgh12345'] }],
    });
    expect(JSON.stringify(record)).not.toContain('abcdefgh12345');
  });

  it('fails closed: a sink that cannot write makes record throw AUDIT_UNAVAILABLE', () => {
    const audit = new AuditTrail({
      sink: {
        write: () => {
          throw new Error('disk full');
        },
      },
      hash: sha256,
      now: clock,
      sessionId: 's',
    });
    expect(() => audit.record({ event: 'session-start' })).toThrow(
      expect.objectContaining({ code: 'AUDIT_UNAVAILABLE' }),
    );
  });
});

describe('the JSON Lines sink', () => {
  it('appends one record per write, readable and verifiable', () => {
    const path = join(tempDir(), 'logs', 'audit.jsonl');
    const sink = createJsonlAuditSink(path);
    const audit = new AuditTrail({ sink, hash: sha256, now: clock, sessionId: 'a' });
    audit.record({ event: 'session-start' });
    audit.close();
    sink.close();
    const { verdicts } = verify(readAuditLogFile(path));
    expect(verdicts).toEqual([expect.objectContaining({ session: 'a', records: 2, intact: true })]);
    expect(readAuditLogFile(join(tempDir(), 'missing.jsonl'))).toBe('');
  });

  it('refuses a log path replaced by a symbolic link, and a log that is not a file', () => {
    const folder = tempDir();
    const target = join(folder, 'elsewhere.txt');
    writeFileSync(target, 'precious\n');
    const link = join(folder, 'audit.jsonl');
    symlinkSync(target, link);
    const audit = new AuditTrail({
      sink: createJsonlAuditSink(link),
      hash: sha256,
      now: clock,
      sessionId: 's',
    });
    expect(() => audit.record({ event: 'session-start' })).toThrow(
      expect.objectContaining({ code: 'AUDIT_UNAVAILABLE' }),
    );
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    const directory = new AuditTrail({
      sink: createJsonlAuditSink(folder),
      hash: sha256,
      now: clock,
      sessionId: 's',
    });
    expect(() => directory.record({ event: 'session-start' })).toThrow(
      expect.objectContaining({ code: 'AUDIT_UNAVAILABLE' }),
    );
  });

  it('survives a crash mid-write: the torn record is reported, later sessions stay intact', () => {
    const path = join(tempDir(), 'audit.jsonl');
    writeFileSync(path, sessionText('first'));
    const torn = sessionText('crashed').split('\n')[0] as string;
    appendFileSync(path, torn.slice(0, 40));
    // Read as it is now: the torn last line is tolerated.
    const before = verify(readFileSync(path, 'utf8'));
    expect(before.log.problems.map((problem) => problem.kind)).toEqual(['torn']);
    expect(before.verdicts).toEqual([expect.objectContaining({ session: 'first', intact: true })]);
    // A new session appends after it, on a line of its own.
    const sink = createJsonlAuditSink(path);
    const audit = new AuditTrail({ sink, hash: sha256, now: clock, sessionId: 'after' });
    audit.record({ event: 'session-start' });
    audit.close();
    sink.close();
    const after = verify(readFileSync(path, 'utf8'));
    expect(after.log.problems.map((problem) => problem.kind)).toEqual(['malformed']);
    expect(after.verdicts.map((verdict) => [verdict.session, verdict.intact])).toEqual([
      ['first', true],
      ['after', true],
    ]);
  });

  it('keeps concurrent writers from interleaving within a record', async () => {
    const path = join(tempDir(), 'audit.jsonl');
    const writer = resolve('test/helpers/audit-writer.mjs');
    const children = Array.from(
      { length: 4 },
      (_, index) =>
        new Promise<number>((done, fail) => {
          const child = spawn(
            process.execPath,
            [writer, path, `writer-${index}`, '200'],

            { stdio: ['ignore', 'ignore', 'inherit'] },
          );
          child.on('error', fail);
          child.on('exit', (code) => done(code ?? -1));
        }),
    );
    expect(await Promise.all(children)).toEqual([0, 0, 0, 0]);
    const { log, verdicts } = verify(readFileSync(path, 'utf8'));
    expect(log.problems).toEqual([]);
    expect(log.records).toHaveLength(4 * 202);
    expect(verdicts.map((verdict) => verdict.intact)).toEqual([true, true, true, true]);
  });
});
