import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/node/hash.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import type {
  ApprovalAnswer,
  ApprovalQuestion,
  ApprovalStore,
  SkillRuntime,
} from '../../src/runtime/types.js';
import {
  createFakeClock,
  createMemoryFileSystem,
  createRecordingAuditSink,
  type MemoryFileSystem,
  skillFixture,
} from '../../src/testing/index.js';

const EVIL_TEXT =
  '---\nname: evil\ndescription: Helps with reports. Use for reports.\n---\nEVIL BODY\n';

/** An untrusted source (`market`) with `evil`, a trusted one (`mine`) with `good`. */
function setup(
  options: {
    answers?: ApprovalAnswer[];
    approvals?: ApprovalStore;
    fs?: MemoryFileSystem;
    onAsk?: (fs: MemoryFileSystem) => void;
  } = {},
) {
  const fs =
    options.fs ??
    createMemoryFileSystem({
      'market/evil/SKILL.md': EVIL_TEXT,
      'market/evil/references/notes.md': 'EVIL NOTES\n',
      ...skillFixture({ name: 'good', folder: 'mine/good', body: 'GOOD BODY\n' }),
    });
  const sink = createRecordingAuditSink();
  const questions: ApprovalQuestion[] = [];
  const answers = options.answers;
  const runtime = createSkillRuntime({
    sources: [
      { id: 'mine', kind: 'explicit', root: '/mine', trust: 'trusted', enabled: true },
      { id: 'market', kind: 'external', root: '/market', trust: 'untrusted', enabled: true },
    ],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'approval' },
    deps: {
      fs,
      hash: sha256,
      now: createFakeClock().now,
      ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
      ...(answers === undefined
        ? {}
        : {
            confirm: async (question: ApprovalQuestion) => {
              questions.push(question);
              options.onAsk?.(fs);
              return answers.shift() ?? 'no';
            },
          }),
    },
  });
  return { runtime, sink, questions, fs };
}

function memoryApprovals(): ApprovalStore & { keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, has: (key) => keys.has(key), add: (key) => void keys.add(key) };
}

const events = (sink: ReturnType<typeof createRecordingAuditSink>) =>
  sink
    .records()
    .filter((record) => record.event !== 'skill-discover' && record.event !== 'session-start')
    .map((record) => [
      record.event,
      (record.details as { effect?: string; scope?: string }).effect ??
        (record.details as { scope?: string }).scope ??
        record.error?.code ??
        null,
    ]);

async function activateByModel(runtime: SkillRuntime, name: string) {
  return runtime.callTool('skillhost_activate', { name });
}

describe("an untrusted skill's activation by the model is confirmed", () => {
  it('is refused with PERMISSION_REQUIRED when no one can be asked, and recorded', async () => {
    const { runtime, sink } = setup();
    const result = await activateByModel(runtime, 'evil');
    expect(result).toMatchObject({ isError: true, code: 'PERMISSION_REQUIRED' });
    expect(result.text).not.toContain('EVIL BODY');
    expect(runtime.isActive('evil')).toBe(false);
    expect(events(sink)).toEqual([
      ['permission-decide', 'ask'],
      ['skill-activate', 'PERMISSION_REQUIRED'],
    ]);
    // A trusted skill is not asked about.
    expect((await activateByModel(runtime, 'good')).text).toContain('GOOD BODY');
  });

  it('asks through confirm, and activates on yes: the question and the answer are recorded', async () => {
    const { runtime, sink, questions } = setup({ answers: ['yes'] });
    const result = await activateByModel(runtime, 'evil');
    expect(result.isError).toBe(false);
    expect(result.text).toContain('EVIL BODY');
    expect(questions).toEqual([
      {
        kind: 'activation',
        skill: 'evil@market',
        source: 'market',
        trusted: false,
        contentHash: sha256(new TextEncoder().encode(EVIL_TEXT)),
        triggeredBy: 'model',
        description: 'Helps with reports. Use for reports.',
        reason: expect.stringContaining('untrusted source market'),
      },
    ]);
    expect(events(sink)).toEqual([
      ['permission-decide', 'ask'],
      ['permission-approve', 'once'],
      ['skill-activate', null],
    ]);
    const activated = sink.records().find((record) => record.event === 'skill-activate');
    expect(activated?.details).toMatchObject({ approval: 'once' });
    expect(activated?.triggered_by).toBe('model');
    // Activated already with this content: nothing new is sent, nothing is asked.
    expect((await activateByModel(runtime, 'evil')).text).toContain('already active');
    expect(questions).toHaveLength(1);
  });

  it('refuses on no, with PERMISSION_DENIED', async () => {
    const { runtime, sink } = setup({ answers: ['no'] });
    expect(await activateByModel(runtime, 'evil')).toMatchObject({
      isError: true,
      code: 'PERMISSION_DENIED',
    });
    expect(events(sink)).toEqual([
      ['permission-decide', 'ask'],
      ['permission-decide', 'deny'],
      ['skill-activate', 'PERMISSION_DENIED'],
    ]);
  });

  it('remembers "always" for that exact content only', async () => {
    const approvals = memoryApprovals();
    const first = setup({ answers: ['always'], approvals });
    expect((await activateByModel(first.runtime, 'evil')).isError).toBe(false);
    expect(approvals.keys.size).toBe(1);
    // A new session: no question, the stored approval is the decision.
    const second = setup({ answers: [], approvals, fs: first.fs });
    expect((await activateByModel(second.runtime, 'evil')).text).toContain('EVIL BODY');
    expect(second.questions).toEqual([]);
    expect(events(second.sink)).toEqual([
      ['permission-decide', 'allow'],
      ['skill-activate', null],
    ]);
    // The synchronous door, which never asks, accepts a stored approval too.
    const third = setup({ approvals, fs: first.fs });
    expect(third.runtime.activate('evil', { triggeredBy: 'model' }).body).toBe('EVIL BODY');
    // Changed content is asked about again.
    first.fs.write('/market/evil/SKILL.md', EVIL_TEXT.replace('EVIL BODY', 'WORSE BODY'));
    const fourth = setup({ answers: ['no'], approvals, fs: first.fs });
    expect((await activateByModel(fourth.runtime, 'evil')).code).toBe('PERMISSION_DENIED');
    expect(fourth.questions).toHaveLength(1);
  });

  it('never activates content other than the content approved', async () => {
    const { runtime } = setup({
      answers: ['yes'],
      onAsk: (fs) =>
        fs.write('/market/evil/SKILL.md', EVIL_TEXT.replace('EVIL BODY', 'SWAPPED BODY')),
    });
    const result = await activateByModel(runtime, 'evil');
    expect(result).toMatchObject({ isError: true, code: 'PERMISSION_REQUIRED' });
    expect(result.text).not.toContain('SWAPPED');
    expect(runtime.isActive('evil')).toBe(false);
  });

  it('asks for the router too; the user’s own activation asks nothing', async () => {
    const { runtime, questions } = setup({ answers: ['yes'] });
    expect(runtime.activate('evil', { triggeredBy: 'user' }).body).toBe('EVIL BODY');
    expect(questions).toEqual([]);
    const other = setup({ answers: ['no'] });
    await expect(
      other.runtime.requestActivation('evil', { triggeredBy: 'router' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(other.questions.map((question) => question.kind)).toEqual(['activation']);
    // The synchronous door never asks: the model's or the router's choice needs an approval.
    for (const triggeredBy of ['model', 'router'] as const) {
      expect(() => other.runtime.activate('evil', { triggeredBy })).toThrow(
        expect.objectContaining({ code: 'PERMISSION_REQUIRED' }),
      );
    }
  });

  it('does not let the model read an untrusted skill’s files before its activation is confirmed', async () => {
    const { runtime, sink } = setup({ answers: ['yes'] });
    for (const path of ['SKILL.md', 'references/notes.md']) {
      const read = await runtime.callTool('skillhost_read', { name: 'evil', path });
      expect(read).toMatchObject({ isError: true, code: 'PERMISSION_REQUIRED' });
      expect(read.text).not.toContain('EVIL');
    }
    const refusals = sink.records().filter((record) => record.event === 'resource-read');
    expect(refusals.map((record) => record.error?.code)).toEqual([
      'PERMISSION_REQUIRED',
      'PERMISSION_REQUIRED',
    ]);
    await activateByModel(runtime, 'evil');
    const read = await runtime.callTool('skillhost_read', {
      name: 'evil',
      path: 'references/notes.md',
    });
    expect(read.text).toBe('EVIL NOTES\n');
    // A trusted skill's files are read as before.
    const good = await runtime.callTool('skillhost_read', { name: 'good', path: 'SKILL.md' });
    expect(good.isError).toBe(false);
  });

  it('marks untrusted skills in search results, after trusted matches', async () => {
    const { runtime } = setup();
    const result = await runtime.callTool('skillhost_search', { query: 'reports good things' });
    expect(result.data?.results).toEqual([
      expect.objectContaining({ name: 'good', trusted: true }),
      expect.objectContaining({ name: 'evil', trusted: false }),
    ]);
    expect(result.text).toMatch(
      /^good .*\nevil \(.*\) \[untrusted: activating it asks the user\]: /,
    );
  });
});
