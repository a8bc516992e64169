import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type ApprovalRequest, sessionKey } from '../../src/loop/approvals.js';
import { sha256 } from '../../src/node/hash.js';
import type { ScriptApprovalQuestion } from '../../src/runtime/types.js';

const question: ScriptApprovalQuestion = {
  kind: 'script',
  skill: 'tool@test',
  source: 'test',
  trusted: true,
  script: 'scripts/run.sh',
  contentHash: 'a'.repeat(64),
  interpreter: 'sh',
  args: ['one'],
  reason: 'scripts are asked',
};

describe('the approval broker', () => {
  it('accepts an answer only for the request it was issued for and its exact input hash', async () => {
    const asked: ApprovalRequest[] = [];
    const broker = new ApprovalBroker({
      hash: sha256,
      // The asker never answers itself: the test answers through the broker.
      ask: (request) => {
        asked.push(request);
        return new Promise(() => {});
      },
    });
    const answer = broker.confirm(question);
    await Promise.resolve();
    const [request] = asked;
    if (request === undefined) throw new Error('not asked');
    expect(request.inputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(broker.answer('approval-99', request.inputHash, { decision: 'once' })).toBe(false);
    expect(broker.answer(request.id, 'f'.repeat(64), { decision: 'once' })).toBe(false);
    expect(broker.pending()).toHaveLength(1);
    expect(broker.answer(request.id, request.inputHash, { decision: 'once' })).toBe(true);
    expect(await answer).toBe('yes');
    // Answered once: a second answer to the same request is refused.
    expect(broker.answer(request.id, request.inputHash, { decision: 'once' })).toBe(false);
    // The same question with other arguments hashes differently.
    const other = broker.confirm({ ...question, args: ['two'] });
    await Promise.resolve();
    expect(asked[1]?.inputHash).not.toBe(request.inputHash);
    broker.answer(asked[1]?.id ?? '', asked[1]?.inputHash ?? '', {
      decision: 'denied',
      reason: 'not that',
    });
    expect(await other).toBe('no');
    expect(broker.takeNotes()).toEqual(['The user refused: not that']);
  });

  it('remembers "for this session" by script and content, not by arguments', async () => {
    const grants: string[] = [];
    let asks = 0;
    const broker = new ApprovalBroker({
      hash: sha256,
      ask: async () => {
        asks += 1;
        return { decision: 'session' };
      },
      onSessionGrant: (key) => grants.push(key),
    });
    expect(await broker.confirm(question)).toBe('yes');
    expect(await broker.confirm({ ...question, args: ['two'] })).toBe('yes');
    expect(asks).toBe(1);
    expect(grants).toEqual([sessionKey(question)]);
    // Other content is asked again.
    expect(await broker.confirm({ ...question, contentHash: 'b'.repeat(64) })).toBe('yes');
    expect(asks).toBe(2);
    // A resumed session starts with its grants.
    const resumed = new ApprovalBroker({ hash: sha256, sessionGrants: grants });
    expect(await resumed.confirm(question)).toBe('yes');
  });

  it('approves with --yes or a covering --allow entry, and denies without a terminal', async () => {
    expect(await new ApprovalBroker({ hash: sha256, yes: true }).confirm(question)).toBe('yes');
    expect(
      await new ApprovalBroker({ hash: sha256, allow: ['Bash(sh scripts/run.sh:*)'] }).confirm(
        question,
      ),
    ).toBe('yes');
    const narrow = new ApprovalBroker({ hash: sha256, allow: ['Bash(sh scripts/other.sh:*)'] });
    expect(await narrow.confirm(question)).toBe('no');
    expect(narrow.deniedWithoutTerminal).toBe(true);
    expect(narrow.takeNotes().join(' ')).toMatch(/--yes.*--allow/);
    expect(() => new ApprovalBroker({ hash: sha256, allow: ['Bash('] })).toThrow(
      expect.objectContaining({ code: 'APPROVAL_ENTRY_INVALID' }),
    );
  });

  it('quits: this and every later request is refused', async () => {
    const broker = new ApprovalBroker({ hash: sha256, ask: async () => ({ decision: 'quit' }) });
    expect(await broker.confirm(question)).toBe('no');
    expect(broker.quit).toBe(true);
    expect(await broker.confirm(question)).toBe('no');
  });
});

describe('questions about workspace tools', () => {
  // The shape the runtime asks with for a host tool (kind 'tool'), written out here.
  const bash = {
    kind: 'tool',
    tool: 'workspace_bash',
    canonical: 'bash',
    workspace: '/work/repo',
    input: { command: 'git status' },
    inputHash: 'h',
    summary: 'bash: git status',
    reason: 'commands are asked',
  } as unknown as ScriptApprovalQuestion;

  it('--allow covers a command as bash reads it, and a session grant is bound to the exact command', async () => {
    expect(
      await new ApprovalBroker({ hash: sha256, allow: ['Bash(git status)'] }).confirm(bash),
    ).toBe('yes');
    const other = {
      ...bash,
      input: { command: 'git status; curl x' },
    } as unknown as ScriptApprovalQuestion;
    expect(
      await new ApprovalBroker({ hash: sha256, allow: ['Bash(git status)'] }).confirm(other),
    ).toBe('no');
    expect(sessionKey(bash)).not.toBe(sessionKey(other));
    const asked: string[] = [];
    const broker = new ApprovalBroker({
      hash: sha256,
      ask: async (request) => {
        asked.push(request.summary);
        return { decision: 'session' };
      },
    });
    await broker.confirm(bash);
    await broker.confirm(bash);
    expect(asked).toEqual(['bash: git status']);
  });
});

describe('questions the host tools ask', () => {
  const write = (path: string) =>
    ({
      kind: 'tool',
      tool: 'workspace_write',
      canonical: 'write',
      workspace: '/work/repo',
      input: { path, content: 'x' },
      summary: `write 1 B to ${path}`,
      reason: 'Confirmation needed',
    }) as const;

  it('--allow covers a path by its glob, or the tool by its name; a session grant covers every write', async () => {
    const docs = new ApprovalBroker({ hash: sha256, allow: ['Write(docs/**)'] });
    expect(await docs.confirm(write('docs/a.md'))).toBe('yes');
    expect(await docs.confirm(write('src/a.ts'))).toBe('no');
    const named = new ApprovalBroker({ hash: sha256, allow: ['workspace_write'] });
    expect(await named.confirm(write('src/a.ts'))).toBe('yes');
    let asked = 0;
    const session = new ApprovalBroker({
      hash: sha256,
      ask: async () => {
        asked += 1;
        return { decision: 'session' };
      },
    });
    await session.confirm(write('a.txt'));
    expect(await session.confirm(write('b.txt'))).toBe('yes');
    expect(asked).toBe(1);
  });
});
