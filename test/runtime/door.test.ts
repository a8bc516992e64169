import { describe, expect, it } from 'vitest';
import type { WatchHandle } from '../../src/deps.js';
import { SkillhostError } from '../../src/errors.js';
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

interface Setup {
  readonly clock?: ReturnType<typeof createFakeClock>;
  readonly tools?: readonly string[];
  readonly deny?: readonly string[];
  readonly unavailable?: string;
  readonly confirm?: () => Promise<'yes' | 'no' | 'always'>;
}

/** A runtime over two skills in memory: `report` (a script, allowed-tools) and `notes`. */
function setup(options: Setup = {}) {
  const fs = createMemoryFileSystem(
    {
      ...skillFixture({
        name: 'report',
        description: 'Makes monthly reports. Use for reports.',
        frontmatter: 'allowed-tools: Read WebFetch',
        body: '# Report\n\nRun scripts/report.sh with the month.\n',
        files: {
          'scripts/report.sh': '#!/bin/sh\necho "report for $1"\n',
          'references/guide.md': '# Guide\n',
        },
      }),
      ...skillFixture({ name: 'notes', body: '# Notes\n\nKeep notes.\n' }),
    },
    { root: '/skills' },
  );
  const runner = createScriptedRunner(
    (request) => ({ stdout: `report for ${request.args[0] ?? ''}\n` }),
    options.unavailable === undefined ? {} : { unavailable: options.unavailable },
  );
  const sink = createRecordingAuditSink();
  const questions: string[] = [];
  const runtime = createSkillRuntime({
    sources: [{ id: 'mem', kind: 'explicit', root: '/skills', trust: 'trusted', enabled: true }],
    policy: { tools: [...(options.tools ?? CANONICAL_TOOLS)], deny: options.deny ?? [] },
    audit: { sink, sessionId: 'door' },
    deps: {
      fs,
      hash: sha256,
      now: (options.clock ?? createFakeClock()).now,
      runner,
      ...(options.confirm === undefined
        ? {}
        : {
            confirm: async (question) => {
              questions.push(
                question.kind === 'script'
                  ? question.script
                  : question.kind === 'activation'
                    ? question.skill
                    : question.tool,
              );
              return (options.confirm as () => Promise<'yes' | 'no' | 'always'>)();
            },
          }),
    },
  });
  return { fs, runner, sink, runtime, questions };
}

describe('SkillRuntime: the one door', () => {
  it('lists a skill’s files through the policy, and records the listing', () => {
    const { runtime, sink } = setup();
    const listing = runtime.listFiles('report');
    expect(listing.files.map((file) => file.path)).toEqual([
      'references/guide.md',
      'scripts/report.sh',
    ]);
    expect(listing.skill.name).toBe('report');
    const record = sink.records().find((item) => item.event === 'resource-list');
    expect(record).toMatchObject({ skill_name: 'report', details: { files: 2, unlisted: 0 } });
    expect(runtime.listFiles('report', { maxFiles: 1 }).unlisted).toBe(1);
  });

  it('refuses a listing the host denies, and records the refusal with its code', () => {
    const { runtime, sink } = setup({ deny: ['read_skill_resource'] });
    expect(() => runtime.listFiles('report')).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
    expect(() => runtime.listFiles('ghost')).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
    const refusals = sink.records().filter((item) => item.event === 'resource-list');
    expect(refusals.map((item) => item.error?.code)).toEqual([
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
    ]);
  });

  it('sends an activation again only when asked to (resend)', () => {
    const { runtime } = setup();
    expect(runtime.activate('notes', { triggeredBy: 'model' }).alreadyActive).toBe(false);
    expect(runtime.activate('notes', { triggeredBy: 'model' })).toMatchObject({
      alreadyActive: true,
      body: '',
    });
    const again = runtime.activate('notes', { triggeredBy: 'user', resend: true });
    expect(again.alreadyActive).toBe(false);
    expect(again.body).toContain('Keep notes.');
    expect(runtime.isActive('notes')).toBe(true);
    expect(runtime.isActive('report')).toBe(false);
  });

  it('records a refusal an adapter decided, as it records its own', () => {
    const { runtime, sink } = setup();
    runtime.recordRefusal({
      event: 'resource-read',
      skill: 'ghost',
      path: 'skill://ghost/SKILL.md',
      error: new SkillhostError('SKILL_NOT_FOUND', 'No skill named "ghost" is offered'),
    });
    expect(sink.records().at(-1)).toMatchObject({
      event: 'resource-read',
      skill_name: 'ghost',
      loaded_files: ['skill://ghost/SKILL.md'],
      error: { code: 'SKILL_NOT_FOUND' },
    });
  });

  it('says which allowed-tools entries the host lacks when a skill is activated', () => {
    const { runtime, sink } = setup({
      tools: ['read', 'activate_skill', 'read_skill_resource', 'run_skill_script'],
    });
    const activation = runtime.activate('report', { triggeredBy: 'model' });
    expect(activation.diagnostics.map((item) => item.code)).toContain('ALLOWED_TOOLS_UNAVAILABLE');
    expect(
      activation.diagnostics.find((item) => item.code === 'ALLOWED_TOOLS_UNAVAILABLE')?.message,
    ).toContain('WebFetch');
    const record = sink.records().find((item) => item.event === 'skill-activate');
    expect(record?.details).toMatchObject({ dropped_grants: ['WebFetch'] });
  });

  it('finds out that scripts cannot run before anyone is asked, and records it', async () => {
    let asked = 0;
    const { runtime, runner, sink, questions } = setup({
      unavailable: 'bubblewrap missing',
      confirm: async () => {
        asked += 1;
        return 'yes';
      },
    });
    runtime.activate('report', { triggeredBy: 'model' });
    await expect(runtime.runScript('report', 'scripts/report.sh', ['May'])).rejects.toMatchObject({
      code: 'SANDBOX_UNAVAILABLE',
    });
    expect(asked).toBe(0);
    expect(questions).toEqual([]);
    expect(runner.requests).toHaveLength(0);
    const failure = sink.records().findLast((item) => item.event === 'script-run');
    expect(failure?.error?.code).toBe('SANDBOX_UNAVAILABLE');
  });

  it('takes tool calls one at a time, in the order they were made, whoever makes them', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { runtime, sink } = setup({
      confirm: async () => {
        await gate;
        return 'yes';
      },
    });
    runtime.activate('report', { triggeredBy: 'model' });
    // The run waits for its confirmation; the read made after it must wait for the run.
    const run = runtime.callTool('skillhost_run', {
      name: 'report',
      script: 'scripts/report.sh',
    });
    const read = runtime.callTool('skillhost_read', {
      name: 'report',
      path: 'references/guide.md',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sink.records().some((item) => item.event === 'resource-read')).toBe(false);
    release();
    expect((await run).isError).toBe(false);
    expect((await read).text).toBe('# Guide\n');
    const events = sink.events();
    expect(events.indexOf('script-run')).toBeLessThan(events.indexOf('resource-read'));
  });

  it('tells listeners of changes, counts revisions, and watches through one handle', async () => {
    const { fs, runtime } = setup();
    const heard: string[][] = [];
    const stop = runtime.onChange((changes) =>
      heard.push(changes.added.map((entry) => entry.name)),
    );
    const before = runtime.revision;
    expect(runtime.refresh()).toMatchObject({ added: [], removed: [], changed: [] });
    expect(runtime.revision).toBe(before);
    fs.write(
      '/skills/later/SKILL.md',
      '---\nname: later\ndescription: Comes later. Use later.\n---\n# Later\n',
    );
    runtime.refresh();
    expect(heard).toEqual([['later']]);
    expect(runtime.revision).toBe(before + 1);
    expect(
      runtime.tools().find((tool) => tool.name === 'skillhost_activate')?.inputSchema.properties
        .name,
    ).toMatchObject({
      enum: ['later', 'notes', 'report'],
    });
    stop();
    let changed: (() => void) | undefined;
    let closed = 0;
    const handle: WatchHandle = {
      close: async () => {
        closed += 1;
      },
    };
    const first = runtime.watch(
      (_roots, onChange) => {
        changed = () => onChange('/skills/x');
        return handle;
      },
      { debounceMs: 0 },
    );
    expect(runtime.watch(() => handle)).toBe(first);
    expect(changed).toBeDefined();
    await runtime.close();
    expect(closed).toBe(1);
  });

  it('records an uncoded failure as INTERNAL_ERROR, never as an uncatalogued code', () => {
    const { fs, runtime, sink } = setup();
    const read = fs.readFileWithin.bind(fs);
    fs.readFileWithin = (root, path, options) => {
      if (path === 'references/guide.md') throw new Error('disk on fire');
      return read(root, path, options);
    };
    expect(() => runtime.readResource('report', 'references/guide.md')).toThrow('disk on fire');
    expect(sink.records().at(-1)).toMatchObject({
      event: 'resource-read',
      error: { code: 'INTERNAL_ERROR', message: 'disk on fire' },
    });
  });

  it('says when discovery stopped at a limit: in its diagnostics and in the audit trail', () => {
    const fs = createMemoryFileSystem(
      {
        ...skillFixture({ name: 'one' }),
        ...skillFixture({ name: 'two' }),
        ...skillFixture({ name: 'three' }),
      },
      { root: '/skills' },
    );
    const sink = createRecordingAuditSink();
    const runtime = createSkillRuntime({
      sources: [{ id: 'mem', kind: 'explicit', root: '/skills', trust: 'trusted', enabled: true }],
      policy: { tools: [...CANONICAL_TOOLS] },
      audit: { sink, sessionId: 'limits' },
      discovery: { maxSkills: 2 },
      keepScans: false,
      deps: { fs, hash: sha256, now: createFakeClock().now },
    });
    expect(runtime.offered()).toHaveLength(2);
    expect(runtime.diagnostics.map((item) => item.code)).toEqual(['WALK_SKILL_LIMIT']);
    const discovered = sink.records().find((item) => item.event === 'skill-discover');
    expect(discovered?.details).toMatchObject({
      findings: [expect.stringContaining('WALK_SKILL_LIMIT')],
    });
  });

  it('opens sessions over one registry: own activations, grants, queue and audit session', async () => {
    const { fs, runtime, sink } = setup();
    const a = runtime.openSession({ id: 'client-a' });
    const b = runtime.openSession({ id: 'client-b' });
    expect(a.sessionId).toBe('client-a');
    a.activate('report', { triggeredBy: 'model' });
    expect(a.isActive('report')).toBe(true);
    expect(b.isActive('report')).toBe(false);
    expect(runtime.isActive('report')).toBe(false);
    expect(a.grants.map((grant) => grant.address)).toEqual(['report@mem']);
    expect(b.grants).toEqual([]);
    // One registry: a change is heard by every session, and the revision is shared.
    const heard: string[] = [];
    b.onChange(() => heard.push('b'));
    fs.write(
      '/skills/later/SKILL.md',
      '---\nname: later\ndescription: Later. Use later.\n---\n# L\n',
    );
    a.refresh();
    expect(heard).toEqual(['b']);
    expect(b.revision).toBe(a.revision);
    expect(b.offered().map((entry) => entry.name)).toContain('later');
    // Each session has its own chained audit session, naming the one it came from.
    const starts = sink.records().filter((record) => record.event === 'session-start');
    expect(starts.map((record) => record.session_id)).toEqual(['door', 'client-a', 'client-b']);
    expect(starts[1]?.details).toMatchObject({ parent_session: 'door' });
    await a.close();
    expect(
      sink
        .records()
        .filter((record) => record.event === 'session-end')
        .map((r) => r.session_id),
    ).toEqual(['client-a']);
    // Closing the runtime closes the sessions still open, then its own.
    await runtime.close();
    expect(
      sink
        .records()
        .filter((record) => record.event === 'session-end')
        .map((r) => r.session_id),
    ).toEqual(['client-a', 'client-b', 'door']);
    expect(sink.parsed().problems).toEqual([]);
    expect(() => runtime.openSession({ id: 'late' })).toThrow('closed');
  });

  it('ends a session’s grants by its rules: another activation, or an idle time', async () => {
    const clock = createFakeClock();
    const { runtime } = setup({ clock });
    const turns = runtime.openSession({ id: 'turns' });
    turns.activate('report', { triggeredBy: 'model' });
    turns.activate('notes', { triggeredBy: 'model' });
    // Without rules, grants last for the turn, whatever else is activated.
    expect(turns.grants.map((grant) => grant.address)).toEqual(['report@mem', 'notes@mem']);
    clock.advance(3_600_000);
    await turns.callTool('skillhost_search', { query: 'reports' });
    expect(turns.grants).toHaveLength(2);

    const client = runtime.openSession({
      id: 'client',
      grantsEndOnOtherActivation: true,
      grantsIdleMs: 60_000,
    });
    await client.callTool('skillhost_activate', { name: 'report' });
    expect(client.grants.map((grant) => grant.address)).toEqual(['report@mem']);
    // Activating another skill ends the first one's pre-approvals…
    await client.callTool('skillhost_activate', { name: 'notes' });
    expect(client.grants.map((grant) => grant.address)).toEqual(['notes@mem']);
    // …and activating it again (deduplicated) puts them back, alone.
    await client.callTool('skillhost_activate', { name: 'report' });
    expect(client.grants.map((grant) => grant.address)).toEqual(['report@mem']);
    // A call within the idle time keeps them; the first call after it finds them ended.
    clock.advance(59_000);
    await client.callTool('skillhost_search', { query: 'reports' });
    expect(client.grants).toHaveLength(1);
    clock.advance(60_001);
    await client.callTool('skillhost_search', { query: 'reports' });
    expect(client.grants).toEqual([]);
    // The skill stays active (its body was delivered); only its pre-approvals ended.
    expect(client.isActive('report')).toBe(true);
    await runtime.close();
  });
});
