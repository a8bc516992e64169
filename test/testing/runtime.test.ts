import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/node/hash.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import {
  createFakeClock,
  createMemoryFileSystem,
  createRecordingAuditSink,
  createScriptedRunner,
  skillFixture,
} from '../../src/testing/index.js';

/** A whole runtime on the doubles: skills in memory, a scripted runner, a fake clock. */
function inMemoryRuntime() {
  const fs = createMemoryFileSystem(
    {
      ...skillFixture({
        name: 'report',
        description: 'Makes monthly reports. Use for reports.',
        frontmatter: 'allowed-tools: Bash(sh scripts/report.sh:*)',
        body: '# Report\n\nRun scripts/report.sh with the month.\n',
        files: {
          'scripts/report.sh': '#!/bin/sh\necho "report for $1"\n',
          'references/guide.md': '# Guide\n',
        },
      }),
      ...skillFixture({ name: 'notes' }),
    },
    { root: '/skills' },
  );
  const runner = createScriptedRunner((request) => ({
    stdout: `report for ${request.args[0] ?? ''}\n`,
  }));
  const clock = createFakeClock('2025-06-01T09:00:00Z');
  const sink = createRecordingAuditSink();
  const runtime = createSkillRuntime({
    sources: [{ id: 'mem', kind: 'explicit', root: '/skills', trust: 'trusted', enabled: true }],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'in-memory' },
    deps: { fs, hash: sha256, now: clock.now, runner },
  });
  return { fs, runner, clock, sink, runtime };
}

describe('the doubles together: a runtime that touches no disk and starts no process', () => {
  it('discovers, activates, reads and runs, with the time the clock says', async () => {
    const { fs, runner, clock, sink, runtime } = inMemoryRuntime();
    expect(runtime.offered().map((entry) => entry.name)).toEqual(['notes', 'report']);
    clock.advance(60_000);
    const activated = await runtime.callTool('skillhost_activate', { name: 'report' });
    expect(activated.text).toContain('Run scripts/report.sh with the month.');
    const guide = await runtime.callTool('skillhost_read', {
      name: 'report',
      path: 'references/guide.md',
    });
    expect(guide.text).toBe('# Guide\n');
    clock.advance(1_000);
    const run = await runtime.callTool('skillhost_run', {
      name: 'report',
      script: 'scripts/report.sh',
      args: ['June'],
    });
    expect(run).toMatchObject({ isError: false, data: { exitCode: 0, approvedBy: 'policy' } });
    expect(run.text).toContain('report for June');
    expect(runner.requests).toHaveLength(1);
    expect(runner.requests[0]).toMatchObject({
      skillDirectory: '/skills/report',
      scriptPath: 'scripts/report.sh',
      interpreter: 'sh',
      args: ['June'],
    });
    expect(new TextDecoder().decode(runner.requests[0]?.scriptBytes)).toBe(
      '#!/bin/sh\necho "report for $1"\n',
    );
    await runtime.close();
    const times = Object.fromEntries(
      sink.records().map((record) => [record.event, record.timestamp]),
    );
    expect(times).toMatchObject({
      'session-start': '2025-06-01T09:00:00.000Z',
      'skill-activate': '2025-06-01T09:01:00.000Z',
      'script-run': '2025-06-01T09:01:01.000Z',
    });
    expect(sink.events().at(-1)).toBe('session-end');
    expect(fs.stats.reads).toBeGreaterThan(0);
  });

  it('sees a skill written into the tree after a refresh', () => {
    const { fs, runtime } = inMemoryRuntime();
    fs.write('/skills/later/SKILL.md', skillFixture({ name: 'later' })['later/SKILL.md'] as string);
    const names = (entries: ReadonlyArray<{ name: string }>) => entries.map((entry) => entry.name);
    expect(names(runtime.refresh().added)).toEqual(['later']);
    fs.remove('/skills/notes');
    expect(names(runtime.refresh().removed)).toEqual(['notes']);
    expect(runtime.offered().map((entry) => entry.name)).toEqual(['later', 'report']);
  });
});
