import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AuditLogFile,
  sortRotatedLogNames,
  verifyAuditFiles,
} from '../../src/audit/rotation.js';
import { AuditTrail } from '../../src/audit/trail.js';
import { auditLogFiles, createJsonlAuditSink, pruneAuditLogs } from '../../src/node/audit-files.js';
import { sha256 } from '../../src/node/hash.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/** A clock that moves one second a call, so each rotation gets its own name. */
function ticking(start = Date.UTC(2026, 0, 1)) {
  let time = start;
  return () => {
    time += 1000;
    return new Date(time);
  };
}

/** Writes `sessions` sessions of `records` reads each into a log that rotates past `maxBytes`. */
function writeLog(
  path: string,
  options: {
    maxBytes: number;
    keep: number;
    sessions: number;
    records: number;
    now?: () => Date;
  },
) {
  const now = options.now ?? ticking();
  const sink = createJsonlAuditSink(path, {
    maxBytes: options.maxBytes,
    keep: options.keep,
    now,
    fsync: 'never',
  });
  // Two sessions open at once, as an MCP server and a command would be.
  const long = new AuditTrail({ sink, hash: sha256, now, sessionId: 'long-running' });
  long.record({ event: 'session-start' });
  for (let index = 0; index < options.sessions; index += 1) {
    const audit = new AuditTrail({ sink, hash: sha256, now, sessionId: `s-${index}` });
    audit.record({ event: 'session-start' });
    for (let read = 0; read < options.records; read += 1)
      audit.record({
        event: 'resource-read',
        skill_name: 'demo',
        loaded_files: [`references/${read}.md`],
      });
    audit.close();
    long.record({ event: 'skill-activate', skill_name: 'demo', triggered_by: 'model' });
  }
  long.close();
  sink.close();
}

const files = (path: string): AuditLogFile[] =>
  auditLogFiles(path).map((file) => ({ name: basename(file), text: readFileSync(file, 'utf8') }));

describe('audit log rotation', () => {
  it('rotates by size, keeps the newest, and the chain verifies across the files', () => {
    const folder = tempDir();
    const path = join(folder, 'audit.jsonl');
    writeLog(path, { maxBytes: 4096, keep: 3, sessions: 12, records: 4 });
    const names = readdirSync(folder).sort();
    expect(names.filter((name) => name !== 'audit.jsonl')).toHaveLength(3);
    expect(names.every((name) => /^audit(\.\d{8}T\d{9}Z(-\d+)?)?\.jsonl$/.test(name))).toBe(true);
    for (const file of auditLogFiles(path))
      expect(readFileSync(file).length).toBeLessThanOrEqual(4096);
    const logs = files(path);
    // Every file but the oldest kept begins with its link to the one before it.
    for (const log of logs.slice(1))
      expect(JSON.parse(log.text.split('\n')[0] as string).event).toBe('log-rotate');
    const verdict = verifyAuditFiles(logs, sha256);
    expect(verdict.problems).toEqual([]);
    expect(verdict.intact).toBe(true);
    // The oldest files are gone: sessions open then continue from the heads recorded.
    expect(verdict.sessions.find((chain) => chain.session === 'long-running')).toMatchObject({
      intact: true,
      continued: true,
      ended: true,
    });
  });

  it('orders logs rotated in the same millisecond by their counter', () => {
    const stamp = '20260101T000000000Z';
    expect(
      sortRotatedLogNames('audit.jsonl', [
        `audit.${stamp}-2.jsonl`,
        'audit.jsonl',
        'notes.txt',
        `audit.${stamp}.jsonl`,
        `audit.${stamp}-10.jsonl`,
        'audit.20251231T235959999Z.jsonl',
        `audit.${stamp}-9.jsonl`,
        `audit.${stamp}-x.jsonl`,
      ]),
    ).toEqual([
      'audit.20251231T235959999Z.jsonl',
      `audit.${stamp}.jsonl`,
      `audit.${stamp}-2.jsonl`,
      `audit.${stamp}-9.jsonl`,
      `audit.${stamp}-10.jsonl`,
    ]);

    // Every rotation in one millisecond: the chain still verifies, and the newest are kept.
    const folder = tempDir();
    const path = join(folder, 'audit.jsonl');
    const frozen = new Date(Date.UTC(2026, 0, 1));
    writeLog(path, { maxBytes: 2048, keep: 4, sessions: 12, records: 4, now: () => frozen });
    const rotated = auditLogFiles(path)
      .slice(0, -1)
      .map((file) => basename(file));
    expect(rotated).toHaveLength(4);
    expect(rotated.every((name) => name.startsWith(`audit.${stamp}-`))).toBe(true);
    const verdict = verifyAuditFiles(files(path), sha256);
    expect(verdict.problems).toEqual([]);
    expect(verdict.intact).toBe(true);
    const counters = rotated.map((name) => Number(/-(\d+)\.jsonl$/.exec(name)?.[1]));
    expect(counters).toEqual([...counters].sort((a, b) => a - b));
    expect(Math.min(...counters)).toBeGreaterThan(2);
  });

  it('shows a rotated log altered, taken out of the middle, or put back in another order', () => {
    const folder = tempDir();
    const path = join(folder, 'audit.jsonl');
    writeLog(path, { maxBytes: 4096, keep: 8, sessions: 10, records: 4 });
    const rotated = auditLogFiles(path).slice(0, -1);
    expect(rotated.length).toBeGreaterThanOrEqual(3);
    expect(verifyAuditFiles(files(path), sha256).intact).toBe(true);

    const altered = files(path).map((log, index) =>
      index === 1 ? { ...log, text: log.text.replace('references/1.md', 'references/9.md') } : log,
    );
    const alteredVerdict = verifyAuditFiles(altered, sha256);
    expect(alteredVerdict.intact).toBe(false);
    expect(alteredVerdict.problems.map((problem) => problem.message).join('\n')).toMatch(
      /is not the one it was rotated from/,
    );

    const middle = rotated[1] as string;
    const saved = readFileSync(middle);
    unlinkSync(middle);
    const missing = verifyAuditFiles(files(path), sha256);
    expect(missing.intact).toBe(false);
    expect(missing.problems.map((problem) => problem.message).join('\n')).toMatch(
      /a rotation is missing|not the one it was rotated from/,
    );
    writeFileSync(middle, saved);

    // Swapping the names of two rotated logs reorders them.
    const [first, second] = rotated as [string, string];
    renameSync(first, `${first}.x`);
    renameSync(second, first);
    renameSync(`${first}.x`, second);
    expect(verifyAuditFiles(files(path), sha256).intact).toBe(false);
  });

  it('follows a rotation made by another writer of the same log', () => {
    const path = join(tempDir(), 'audit.jsonl');
    const now = ticking();
    const a = createJsonlAuditSink(path, { maxBytes: 2048, keep: 100, now, fsync: 'never' });
    const b = createJsonlAuditSink(path, { maxBytes: 2048, keep: 100, now, fsync: 'never' });
    const first = new AuditTrail({ sink: a, hash: sha256, now, sessionId: 'a' });
    const second = new AuditTrail({ sink: b, hash: sha256, now, sessionId: 'b' });
    for (let index = 0; index < 30; index += 1) {
      first.record({ event: 'resource-read', loaded_files: [`a/${index}`] });
      second.record({ event: 'resource-read', loaded_files: [`b/${index}`] });
    }
    first.close();
    second.close();
    a.close();
    b.close();
    const logs = files(path);
    expect(logs.length).toBeGreaterThan(2);
    const verdict = verifyAuditFiles(logs, sha256);
    expect(verdict.intact).toBe(true);
    expect(verdict.sessions.map((chain) => [chain.session, chain.records])).toEqual([
      ['a', 31],
      ['b', 31],
    ]);
  });

  it('prunes the rotated logs older than a date, never the current one', () => {
    const path = join(tempDir(), 'audit.jsonl');
    writeLog(path, { maxBytes: 4096, keep: 20, sessions: 10, records: 4 });
    const before = auditLogFiles(path);
    const cut = JSON.parse(
      readFileSync(before[2] as string, 'utf8')
        .trim()
        .split('\n')
        .at(-1) as string,
    ).timestamp as string;
    const removed = pruneAuditLogs(path, new Date(Date.parse(cut) + 1));
    expect(removed).toEqual(before.slice(0, 3));
    expect(auditLogFiles(path)).toEqual(before.slice(3));
    expect(pruneAuditLogs(path, new Date('2100-01-01'))).toHaveLength(before.length - 4);
    expect(auditLogFiles(path)).toEqual([path]);
  });
});

describe('skillhost audit verify and prune over rotated logs', () => {
  it('verifies every file, prunes by date and records the prune', async () => {
    const home = tempDir('skillhost-home-');
    const path = join(home, 'audit.jsonl');
    writeLog(path, { maxBytes: 4096, keep: 8, sessions: 8, records: 4 });
    const rotated = auditLogFiles(path).length - 1;
    const verify = await runCli(['audit', 'verify', '--audit-log', path], { home });
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain(`and ${rotated} rotated logs`);
    expect(verify.stdout).toContain('Audit log intact.');
    const show = await runCli(['audit', 'show', '--json', '--audit-log', path], { home });
    const shown = JSON.parse(show.stdout) as Array<{ event: string; session_id: string }>;
    expect(shown.some((record) => record.event === 'log-rotate')).toBe(false);
    expect(shown.filter((record) => record.session_id === 's-0')).toHaveLength(6);

    const prune = await runCli(
      ['audit', 'prune', '--before', '2100-01-01', '--json', '--audit-log', path],
      {
        home,
      },
    );
    expect(prune.code).toBe(0);
    expect(JSON.parse(prune.stdout).removed).toHaveLength(rotated);
    expect(auditLogFiles(path)).toEqual([path]);
    const after = await runCli(['audit', 'verify', '--json', '--audit-log', path], { home });
    const verdict = JSON.parse(after.stdout);
    expect(verdict.intact).toBe(true);
    const tail = await runCli(['audit', 'tail', '-n', '2', '--json', '--audit-log', path], {
      home,
    });
    expect(
      (JSON.parse(tail.stdout) as Array<{ event: string }>).map((record) => record.event),
    ).toEqual(['log-prune', 'session-end']);
    expect((await runCli(['audit', 'prune', '--audit-log', path], { home })).code).toBe(2);
    expect(
      (await runCli(['audit', 'prune', '--before', 'yesterday', '--audit-log', path], { home }))
        .code,
    ).toBe(2);
  });

  it('rotates the CLI log at the size the user config sets', async () => {
    const home = tempDir('skillhost-home-');
    const skills = tempDir();
    const config = join(home, '.skillhost', 'config.json');
    mkdirSync(join(home, '.skillhost'));
    writeFileSync(
      config,
      JSON.stringify({ trustedProjects: [], auditLog: { maxBytes: 2000, keep: 2 } }),
    );
    for (let index = 0; index < 6; index += 1)
      await runCli(['tools', '--no-default-sources', '--skills', skills], { home });
    const log = join(home, '.skillhost', 'audit.jsonl');
    const all = auditLogFiles(log);
    expect(all.length).toBe(3);
    expect((await runCli(['audit', 'verify'], { home })).code).toBe(0);
  });
});
