import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CliMcpServer,
  type CliPermissionHandler,
  type CliPermissionRequest,
  splitCommandLine,
} from '../../src/internal.js';
import {
  type AcpAgentSpec,
  createAcpDriver,
  permissionOutcome,
} from '../../src/node/acp-driver.js';
import { acpCommandSpec, cursorSpec, geminiPolicy, geminiSpec } from '../../src/node/cli-agents.js';
import { ofType, turn } from '../helpers/cli-turns.js';
import { type AcpScenario, fakeAcpAgent } from '../helpers/fake-acp.js';
import { tempDir } from '../helpers/temp.js';

const SERVER: CliMcpServer = {
  transport: 'stdio',
  name: 'skillhost',
  command: '/usr/local/bin/node',
  args: ['/opt/skillhost/dist/cli/bin.js', 'mcp'],
  env: { SKILLHOST_HOME: '/home/me/.skillhost' },
};

const OPTIONS = [
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
] as const;

const allowAll: CliPermissionHandler = async () => ({ behavior: 'allow', scope: 'once' });

interface StartOptions {
  readonly spec?: (command: string, prefix: readonly string[]) => AcpAgentSpec;
  readonly permissions?: CliPermissionHandler;
  readonly workspace?: { readonly path: string; readonly writable: boolean };
  readonly env?: Record<string, string>;
  readonly model?: string;
  readonly resume?: string;
  readonly onSessionStart?: () => string;
}

async function start(scenario: AcpScenario, options: StartOptions = {}) {
  const fake = fakeAcpAgent(scenario);
  const cwd = options.workspace?.path ?? tempDir('skillhost-acp-cwd-');
  const spec = (
    options.spec ?? ((command, prefix) => ({ ...geminiSpec(command, prefix), minimum: '1.0.0' }))
  )(fake.command, fake.prefix);
  const env = { ...fake.env, ...(options.env ?? {}) };
  const driver = createAcpDriver({ spec, env, cwd, clientVersion: '9.9.9' });
  const session = await driver.start({
    system: 'AGENT-INSTRUCTIONS',
    cwd,
    env,
    mcpServer: SERVER,
    permissions: options.permissions ?? allowAll,
    closeGraceMs: 300,
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    ...(options.onSessionStart === undefined ? {} : { onSessionStart: options.onSessionStart }),
  });
  return { fake, session, driver, cwd };
}

const text = (value: string) => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text: value },
});

describe('the ACP driver: the session', () => {
  it('initialises, opens a session with our MCP server, and sends the instructions with the first prompt only', async () => {
    const workspace = { path: tempDir('skillhost-acp-ws-'), writable: false };
    const { fake, session } = await start(
      { prompts: [[{ update: text('Hi.') }], []] },
      { workspace, model: 'gemini-2.5-pro' },
    );
    const events = await turn(session);
    await turn(session, 'second');
    await session.close();
    const record = fake.record();
    // Its admin policy from a private file, removed with the session.
    expect(record.argv.slice(0, 4)).toEqual([
      '--acp',
      '--approval-mode',
      'default',
      '--admin-policy',
    ]);
    expect(record.argv.slice(5)).toEqual(['-m', 'gemini-2.5-pro']);
    expect(existsSync(record.argv[4])).toBe(false);
    const [initialize, opened] = record.calls;
    expect(initialize[0]).toBe('initialize');
    expect(initialize[1]).toMatchObject({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'skillhost', version: '9.9.9' },
    });
    expect(opened).toEqual([
      'session/new',
      {
        cwd: workspace.path,
        mcpServers: [
          {
            name: 'skillhost',
            command: '/usr/local/bin/node',
            args: SERVER.args,
            env: [{ name: 'SKILLHOST_HOME', value: '/home/me/.skillhost' }],
          },
        ],
      },
    ]);
    expect(record.prompts).toEqual([
      [
        { type: 'text', text: 'AGENT-INSTRUCTIONS' },
        { type: 'text', text: 'Review src/' },
      ],
      [{ type: 'text', text: 'second' }],
    ]);
    expect(events[0]).toMatchObject({
      type: 'start',
      provider: 'gemini',
      model: 'gemini-2.5-pro',
      agentSession: 'fake-session-1',
      agentVersion: '1.2.3',
    });
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'done', text: 'Hi.' });
  });

  it('authenticates Cursor first with cursor_login and starts it as `agent acp`', async () => {
    const { fake, session } = await start(
      { authMethods: [{ id: 'cursor_login', name: 'Cursor' }], prompts: [[]] },
      { spec: (command, prefix) => cursorSpec(command, prefix) },
    );
    await turn(session);
    await session.close();
    const record = fake.record();
    expect(record.argv).toEqual(['acp']);
    expect(record.calls.map((call: unknown[]) => call[0])).toEqual([
      'initialize',
      'authenticate',
      'session/new',
    ]);
    expect(record.calls[1][1]).toEqual({ methodId: 'cursor_login' });
  });

  it('authenticates where required: after session/new asks, with the key the environment has', async () => {
    const { fake, session } = await start(
      {
        requireAuth: true,
        authMethods: [
          { id: 'oauth-personal', name: 'Google' },
          { id: 'gemini-api-key', name: 'Key' },
        ],
        prompts: [[]],
      },
      { env: { GEMINI_API_KEY: 'dummy' } },
    );
    await turn(session);
    await session.close();
    expect(fake.record().calls.map((call: unknown[]) => call[0])).toEqual([
      'initialize',
      'session/new',
      'authenticate',
      'session/new',
    ]);
    expect(fake.record().calls[2][1]).toEqual({ methodId: 'gemini-api-key' });
  });

  it('fails to start with the login code when no login is possible', async () => {
    await expect(start({ requireAuth: true, authMethods: [] })).rejects.toMatchObject({
      code: 'CLI_AGENT_LOGIN_REQUIRED',
      message: expect.stringContaining('GEMINI_API_KEY'),
    });
  });

  it('loads a session to resume without replaying it as events, and gives the context with the next message', async () => {
    const { fake, session } = await start(
      { loadSession: true, prompts: [[{ update: text('Again.') }]] },
      { resume: 'fake-session-0', onSessionStart: () => 'SKILLS-STATE' },
    );
    const events = await turn(session);
    await session.close();
    expect(fake.record().calls[1]).toEqual([
      'session/load',
      expect.objectContaining({ sessionId: 'fake-session-0' }),
    ]);
    expect(ofType(events, 'text').map((event) => event.text)).toEqual(['Again.']);
    expect(fake.record().prompts[0]).toEqual([
      { type: 'text', text: 'SKILLS-STATE' },
      { type: 'text', text: 'Review src/' },
    ]);
  });

  it('chooses the model through the session when the agent offers it, else says it cannot', async () => {
    const offered = await start(
      {
        models: {
          currentModelId: 'auto',
          availableModels: [{ modelId: 'auto' }, { modelId: 'fast-1' }],
        },
        prompts: [[]],
      },
      { spec: (command, prefix) => cursorSpec(command, prefix), model: 'fast-1' },
    );
    const events = await turn(offered.session);
    await offered.session.close();
    expect(offered.fake.record().calls.at(-1)).toEqual([
      'session/set_model',
      { sessionId: 'fake-session-1', modelId: 'fast-1' },
    ]);
    expect(events[0]).toMatchObject({ type: 'start', model: 'fast-1' });
    const missing = await start(
      { prompts: [[]] },
      { spec: (command, prefix) => cursorSpec(command, prefix), model: 'nope-1' },
    );
    const more = await turn(missing.session);
    await missing.session.close();
    expect(ofType(more, 'warning')[0]?.message).toContain('does not offer the model nope-1');
  });
});

describe('the ACP driver: permissions', () => {
  it('maps the tool call for the policy and picks the option that carries out the decision', async () => {
    const asked: CliPermissionRequest[] = [];
    const decisions = [
      { behavior: 'allow', scope: 'once' },
      { behavior: 'allow', scope: 'always' },
      { behavior: 'deny', rule: 'deny-rule: Bash(rm:*)', reason: 'no' },
    ] as const;
    const { fake, session } = await start(
      {
        prompts: [
          [1, 2, 3].map((n) => ({
            permission: {
              toolCall: {
                toolCallId: `call_${n}`,
                title: 'rm -rf build',
                kind: 'execute',
                rawInput: { command: 'rm -rf build' },
              },
              options: OPTIONS,
            },
          })),
        ],
      },
      {
        permissions: async (request) => {
          asked.push(request);
          return decisions[asked.length - 1] as (typeof decisions)[number];
        },
      },
    );
    await turn(session);
    await session.close();
    expect(asked[0]?.request).toEqual({ tool: 'bash', command: 'rm -rf build' });
    expect(asked[0]?.scopes).toEqual(['once', 'always']);
    expect(fake.record().answers).toEqual([
      ['permission', { outcome: { outcome: 'selected', optionId: 'once' } }],
      ['permission', { outcome: { outcome: 'selected', optionId: 'always' } }],
      ['permission', { outcome: { outcome: 'selected', optionId: 'no' } }],
    ]);
  });

  it('never grants more than decided: an agent offering only "always" gets "cancelled" for a once', () => {
    expect(permissionOutcome([OPTIONS[0]], { behavior: 'allow', scope: 'once' })).toEqual({
      outcome: { outcome: 'cancelled' },
    });
    expect(permissionOutcome([...OPTIONS], undefined)).toEqual({
      outcome: { outcome: 'cancelled' },
    });
    expect(permissionOutcome([OPTIONS[1]], { behavior: 'deny', rule: 'x', reason: 'y' })).toEqual({
      outcome: { outcome: 'cancelled' },
    });
  });

  it('answers a pending question "cancelled" when the turn is cancelled, and tells the agent', async () => {
    let signal: AbortSignal | undefined;
    const { fake, session } = await start(
      {
        prompts: [
          [
            {
              permission: {
                toolCall: { toolCallId: 'call_1', title: 'make', kind: 'execute' },
                options: OPTIONS,
              },
            },
            { waitCancel: true },
          ],
        ],
      },
      {
        permissions: (request) => {
          signal = request.signal;
          setTimeout(() => session.cancel(), 50);
          return new Promise(() => {});
        },
      },
    );
    const events = await turn(session);
    await session.close();
    expect(signal?.aborted).toBe(true);
    expect(fake.record().answers).toEqual([['permission', { outcome: { outcome: 'cancelled' } }]]);
    expect(fake.record().cancels).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'interrupted' });
  });

  it('switches the agent back when it enters a mode that approves without asking', async () => {
    const { fake, session } = await start({
      prompts: [
        [
          { update: { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' } },
          { sleep: 100 },
        ],
      ],
    });
    const events = await turn(session);
    await session.close();
    expect(ofType(events, 'warning')[0]).toMatchObject({ code: 'CLI_AGENT_MODE_UNSAFE' });
    expect(fake.record().calls.at(-1)).toEqual([
      'session/set_mode',
      { sessionId: 'fake-session-1', modeId: 'default' },
    ]);
  });
});

describe("the ACP driver: the client's requests", () => {
  it('reads and writes files by the workspace rules, after the policy', async () => {
    const root = tempDir('skillhost-acp-ws-');
    const outside = tempDir('skillhost-acp-out-');
    writeFileSync(join(root, 'notes.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(root, '.env'), 'KEY=secret');
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    mkdirSync(join(root, '.git'));
    const asked: CliPermissionRequest[] = [];
    const { fake, session } = await start(
      {
        prompts: [
          [
            { read: join(root, 'notes.txt') },
            { read: join(root, '.env') },
            { read: join(outside, 'secret.txt') },
            { read: join(root, 'link.txt') },
            { write: [join(root, 'out.txt'), 'WRITTEN'] },
            { write: [join(root, '.git', 'hooks'), 'x'] },
            { write: [join(root, 'link.txt'), 'x'] },
            { read: join(root, 'denied.txt') },
          ],
        ],
      },
      {
        workspace: { path: root, writable: true },
        permissions: async (request) => {
          asked.push(request);
          return request.request?.path === 'denied.txt'
            ? { behavior: 'deny', rule: 'deny-rule: Read(denied.txt)', reason: 'not that one' }
            : { behavior: 'allow', scope: 'once' };
        },
      },
    );
    await turn(session);
    await session.close();
    const answers = fake.record().answers;
    expect(answers[0]).toEqual(['read', { content: 'one\ntwo\nthree\n' }]);
    expect(answers[1]).toEqual(['read-error', -32602, expect.stringContaining('secrets')]);
    expect(answers[2]).toEqual([
      'read-error',
      -32602,
      expect.stringContaining('outside the workspace'),
    ]);
    expect(answers[3]?.[0]).toBe('read-error');
    expect(answers[4]).toEqual(['write', {}]);
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('WRITTEN');
    expect(answers[5]).toEqual(['write-error', -32602, expect.stringContaining('.git')]);
    expect(answers[6]?.[0]).toBe('write-error');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE');
    expect(answers[7]).toEqual([
      'read-error',
      -32602,
      expect.stringContaining('deny-rule: Read(denied.txt)'),
    ]);
    expect(asked.map((request) => request.request)).toContainEqual({
      tool: 'edit',
      path: 'out.txt',
    });
  });

  it('refuses writes to a read-only workspace, files without one, and terminals', async () => {
    const root = tempDir('skillhost-acp-ws-');
    const readOnly = await start(
      { prompts: [[{ write: [join(root, 'a.txt'), 'x'] }]] },
      { workspace: { path: root, writable: false } },
    );
    await turn(readOnly.session);
    await readOnly.session.close();
    expect(readOnly.fake.record().answers[0]).toEqual([
      'write-error',
      -32602,
      expect.stringContaining('read-only'),
    ]);
    const none = await start({
      prompts: [
        [{ read: join(root, 'a.txt') }, { request: ['terminal/create', { command: 'ls' }] }],
      ],
    });
    await turn(none.session);
    await none.session.close();
    expect(none.fake.record().answers).toEqual([
      ['read-error', -32602, expect.stringContaining('without a workspace')],
      ['terminal/create-error', -32602, expect.stringContaining('does not give agents terminals')],
    ]);
  });

  it("answers Cursor's blocking extension requests and refuses unknown ones, so nothing stalls", async () => {
    const { fake, session } = await start({
      prompts: [
        [
          { request: ['cursor/ask_question', { questions: [] }] },
          { request: ['cursor/create_plan', { plan: 'x' }] },
          { request: ['_vendor/other', {}] },
          { update: text('Went on.') },
        ],
      ],
    });
    const events = await turn(session);
    await session.close();
    expect(fake.record().answers).toEqual([
      ['cursor/ask_question', { outcome: { outcome: 'skipped', reason: expect.any(String) } }],
      ['cursor/create_plan', { outcome: { outcome: 'rejected', reason: expect.any(String) } }],
      ['_vendor/other-error', -32601, expect.any(String)],
    ]);
    expect(ofType(events, 'warning')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'done', text: 'Went on.' });
  });
});

describe('the ACP driver: events', () => {
  it('maps chunks, tool calls once, results once, usage, compaction and the stop reason', async () => {
    const { session } = await start({
      usage: { inputTokens: 100, outputTokens: 20, cachedReadTokens: 5 },
      prompts: [
        [
          {
            update: {
              sessionUpdate: 'agent_thought_chunk',
              content: { type: 'text', text: 'hmm' },
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 't1',
              title: 'Read notes',
              kind: 'read',
              status: 'pending',
              rawInput: { path: 'notes.txt' },
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 't1',
              title: 'Read notes',
              kind: 'read',
              status: 'in_progress',
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 't1',
              status: 'completed',
              content: [{ type: 'content', content: { type: 'text', text: 'NOTES' } }],
            },
          },
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' } },
          {
            update: {
              sessionUpdate: 'usage_update',
              used: 1000,
              size: 200000,
              cost: { amount: 0.5, currency: 'USD' },
            },
          },
          {
            update: { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
          },
          { update: text('Done') },
          { update: text('.') },
        ],
      ],
    });
    const events = await turn(session);
    await session.close();
    expect(events.map((event) => event.type)).toEqual([
      'start',
      'step',
      'reasoning',
      'tool-call',
      'tool-result',
      'compaction',
      'step',
      'text',
      'text',
      'usage',
      'end',
    ]);
    expect(ofType(events, 'tool-result')[0]).toMatchObject({
      id: 't1',
      isError: false,
      text: 'NOTES',
      bytes: 5,
    });
    expect(ofType(events, 'usage')[0]).toEqual({
      type: 'usage',
      step: 2,
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 5, cacheWriteTokens: 0 },
      finishReason: 'end_turn',
      costUsd: 0.5,
    });
    expect(events.at(-1)).toMatchObject({ status: 'done', steps: 2, text: 'Done.' });
  });

  it.each([
    ['max_tokens', { status: 'limit', limit: 'output-tokens' }],
    ['max_turn_requests', { status: 'limit', limit: 'steps' }],
    ['refusal', { status: 'failed', code: 'MODEL_REFUSED' }],
  ])('ends a turn stopped by %s accordingly', async (stopReason, expected) => {
    const { session } = await start({ prompts: [[]], stopReasons: [stopReason] });
    const events = await turn(session);
    await session.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', ...expected });
  });

  it.each([
    [[-32000, 'Authentication required'], 'CLI_AGENT_LOGIN_REQUIRED'],
    [[-32603, 'got status: 429 RESOURCE_EXHAUSTED quota'], 'MODEL_RATE_LIMITED'],
    [[-32603, 'The model is overloaded (503 UNAVAILABLE)'], 'MODEL_OVERLOADED'],
    [[-32603, 'input token count exceeds the maximum'], 'MODEL_CONTEXT_TOO_LONG'],
    [[-32603, 'boom'], 'CLI_AGENT_FAILED'],
  ])('classifies a failed prompt %j as %s', async (fail, code) => {
    const { session } = await start({ prompts: [[{ fail }]] });
    const events = await turn(session);
    await session.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'failed', code });
  });

  it('fails the turn when the agent exits in the middle of it', async () => {
    const { session } = await start({ prompts: [[{ update: text('Half') }, { exit: 3 }]] });
    const events = await turn(session);
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_FAILED',
      reason: expect.stringContaining('exited (3)'),
    });
    await session.close();
  });
});

describe('an agent given with --acp-command', () => {
  it('is one plain command, read as a shell reads its words', () => {
    expect(splitCommandLine(`my-agent --acp --name 'two words' "x y"`)).toEqual([
      'my-agent',
      '--acp',
      '--name',
      'two words',
      'x y',
    ]);
    for (const bad of ['a | b', 'a; b', 'a $(b)', 'a `b`', 'X=1 a', 'a > out', 'a $HOME', '']) {
      expect(() => splitCommandLine(bad), bad).toThrow(
        expect.objectContaining({ code: 'CLI_AGENT_COMMAND_INVALID' }),
      );
    }
    expect(acpCommandSpec('my-agent --acp')).toMatchObject({
      provider: 'acp',
      command: 'my-agent',
      args: ['--acp'],
    });
  });

  it('is driven like the others', async () => {
    const { session, fake } = await start(
      { prompts: [[{ update: text('OK') }]] },
      {
        spec: (command, prefix) =>
          acpCommandSpec(`${command} ${prefix.map((part) => `'${part}'`).join(' ')} --serve`),
      },
    );
    const events = await turn(session);
    await session.close();
    expect(fake.record().argv).toEqual(['--serve']);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'acp' });
    expect(events.at(-1)).toMatchObject({ status: 'done', text: 'OK' });
  });
});

describe("Gemini CLI's admin policy for a session", () => {
  it('asks about every tool and denies what the policy denies', () => {
    const toml = geminiPolicy({
      tools: ['bash', 'read', 'write', 'web_fetch'],
      deny: ['Bash(rm:*)', 'Bash(git push)', 'WebFetch', 'Read(secrets/**)'],
      defaults: { write: 'deny' },
    });
    const rules = toml
      .split('[[rule]]')
      .slice(1)
      .map((rule) => rule.trim());
    expect(rules).toEqual([
      'toolName = "*"\ndecision = "ask_user"\npriority = 900',
      'toolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 999',
      'toolName = "run_shell_command"\ncommandPrefix = "git push"\ndecision = "deny"\npriority = 999',
      'toolName = "web_fetch"\ndecision = "deny"\npriority = 999',
      'toolName = "write_file"\ndecision = "deny"\npriority = 999',
    ]);
    // Without a policy it still asks about everything.
    expect(geminiPolicy(undefined)).toContain('decision = "ask_user"');
  });
});
