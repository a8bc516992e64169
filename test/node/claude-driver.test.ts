import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, type PolicyConfig, type ToolRequest } from '../../src/core.js';
import {
  ApprovalBroker,
  type ApprovalRequest,
  type CliMcpServer,
  type CliPermissionHandler,
  type CliPermissionRequest,
  type LoopEvent,
  policyPermissions,
  runCliTurn,
} from '../../src/internal.js';
import { createClaudeDriver } from '../../src/node/claude-driver.js';
import { sha256 } from '../../src/node/hash.js';
import { ofType, turn } from '../helpers/cli-turns.js';
import { type FakeScenario, fakeClaude, claudeMessages as m } from '../helpers/fake-claude.js';
import { tempDir } from '../helpers/temp.js';

const SERVER: CliMcpServer = {
  transport: 'stdio',
  name: 'skillhost',
  command: '/usr/local/bin/node',
  args: ['/opt/skillhost/dist/cli/bin.js', 'mcp', '--skills', '/work/skills'],
  env: { SKILLHOST_HOME: '/home/me/.skillhost' },
};

const SYSTEM = 'You are the code analyst. SYSTEM-PROMPT-MARKER';

const allowAll: CliPermissionHandler = async () => ({ behavior: 'allow', scope: 'once' });

async function start(
  scenario: FakeScenario,
  options: {
    permissions?: CliPermissionHandler;
    model?: string;
    resume?: string;
    idleTimeoutMs?: number;
    onSessionStart?: () => string | undefined;
    builtinTools?: readonly string[];
    allowedTools?: readonly string[];
    disallowedTools?: readonly string[];
  } = {},
) {
  const fake = fakeClaude(scenario);
  const cwd = tempDir('skillhost-claude-cwd-');
  const temp = tempDir('skillhost-claude-tmp-');
  const driver = createClaudeDriver({
    command: fake.command,
    commandPrefix: fake.prefix,
    env: fake.env,
    cwd,
    tempDir: temp,
    ...(options.builtinTools === undefined ? {} : { builtinTools: options.builtinTools }),
    ...(options.allowedTools === undefined ? {} : { allowedTools: options.allowedTools }),
    ...(options.disallowedTools === undefined ? {} : { disallowedTools: options.disallowedTools }),
  });
  const session = await driver.start({
    system: SYSTEM,
    cwd,
    env: fake.env,
    mcpServer: SERVER,
    permissions: options.permissions ?? allowAll,
    closeGraceMs: 300,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.onSessionStart === undefined ? {} : { onSessionStart: options.onSessionStart }),
  });
  return { fake, session, driver, cwd, temp };
}

/** Whether a process runs (a zombie waiting for its parent to reap it runs no more). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const ANSWER_TURN = [
  { write: m.init() },
  { write: m.assistant('msg_1', [{ type: 'text', text: 'Done.' }]) },
  { write: m.result() },
];

describe('the claude driver: its command line', () => {
  it('never passes a bypass flag, keeps the prompt off argv in a private file, and removes it', async () => {
    const { fake, session, temp } = await start(
      { turns: [ANSWER_TURN] },
      { builtinTools: ['Bash', 'Read'], allowedTools: ['mcp__skillhost__skillhost_activate'] },
    );
    await turn(session);
    const record = fake.record();
    const argv = record.argv;
    expect(argv.join(' ')).not.toMatch(
      /dangerously|bypassPermissions|acceptEdits|dontAsk|SYSTEM-PROMPT-MARKER/,
    );
    expect(argv).toEqual(
      expect.arrayContaining([
        '-p',
        '--verbose',
        '--include-partial-messages',
        '--strict-mcp-config',
        '--setting-sources=',
        '--tools=Bash,Read',
        '--allowedTools=mcp__skillhost__skillhost_activate',
      ]),
    );
    expect(argv.slice(argv.indexOf('--input-format'), argv.indexOf('--input-format') + 2)).toEqual([
      '--input-format',
      'stream-json',
    ]);
    expect(argv[argv.indexOf('--permission-prompt-tool') + 1]).toBe('stdio');
    expect(argv[argv.indexOf('--permission-mode') + 1]).toBe('default');
    // No model unless one was chosen; no resume, no disallowed list when empty.
    expect(argv.some((argument) => argument.startsWith('--model'))).toBe(false);
    expect(argv.some((argument) => argument.startsWith('--resume'))).toBe(false);
    expect(argv.some((argument) => argument.startsWith('--disallowedTools'))).toBe(false);
    const prompt = record.files['append-system-prompt-file'];
    expect(prompt?.text).toBe(SYSTEM);
    expect(prompt?.mode).toBe(0o600);
    const config = JSON.parse(record.files['mcp-config']?.text ?? '{}');
    expect(config).toEqual({
      mcpServers: {
        skillhost: {
          type: 'stdio',
          command: '/usr/local/bin/node',
          args: SERVER.args,
          env: SERVER.env,
        },
      },
    });
    expect(record.files['mcp-config']?.mode).toBe(0o600);
    await session.close();
    const promptPath = (prompt as unknown as { path: string }).path;
    expect(promptPath.startsWith(temp)).toBe(true);
    expect(existsSync(promptPath)).toBe(false);
  });

  it('passes the model only when chosen and the session to resume as one argument', async () => {
    const { fake, session } = await start(
      { turns: [ANSWER_TURN] },
      { model: 'claude-opus-4-5', resume: '0f6a1c2e-aaaa-bbbb-cccc-1234567890ab' },
    );
    await turn(session);
    const argv = fake.record().argv;
    expect(argv).toContain('--model=claude-opus-4-5');
    expect(argv).toContain('--resume=0f6a1c2e-aaaa-bbbb-cccc-1234567890ab');
    await session.close();
  });

  it('refuses a model, a session id or a tool entry that would pose as a flag', async () => {
    await expect(start({}, { model: '--dangerously-skip-permissions' })).rejects.toMatchObject({
      code: 'MODEL_UNKNOWN',
    });
    await expect(start({}, { resume: '--fork-session' })).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    await expect(
      start({}, { allowedTools: ['Bash', '--dangerously-skip-permissions'] }),
    ).rejects.toMatchObject({ code: 'TOOL_INPUT_INVALID' });
  });
});

describe('the claude driver: the control protocol', () => {
  it('sends initialize, waits for its answer, and only then the first message', async () => {
    const { fake, session } = await start({
      beforeInit: [{ sleep: 150 }],
      turns: [ANSWER_TURN],
    });
    await turn(session);
    const input = fake.record().input;
    expect(input[0]).toMatchObject({
      type: 'control_request',
      request: { subtype: 'initialize' },
    });
    expect(input[1]).toMatchObject({
      type: 'user',
      message: { role: 'user', content: 'Review src/' },
    });
    await session.close();
  });

  it('fails to start, with a code, when initialize is refused', async () => {
    await expect(start({ initialize: 'error' })).rejects.toMatchObject({
      code: 'CLI_AGENT_FAILED',
    });
  });

  it("answers can_use_tool in the nested control_response shape, a deny with the policy's rule", async () => {
    const asked: CliPermissionRequest[] = [];
    const { fake, session, cwd } = await start(
      {
        turns: [
          [
            { write: m.init() },
            { ask: { id: 'q1', tool: 'Bash', input: { command: 'ls -la' }, toolUseId: 'toolu_1' } },
            { await: 'q1' },
            { ask: { id: 'q2', tool: 'Read', input: { file_path: '/etc/shadow' } } },
            { await: 'q2' },
            { write: m.result() },
          ],
        ],
      },
      {
        permissions: async (request) => {
          asked.push(request);
          return request.tool === 'Bash'
            ? { behavior: 'allow', scope: 'once' }
            : { behavior: 'deny', rule: 'deny-rule: Read(/etc/**)', reason: 'secrets' };
        },
      },
    );
    await turn(session);
    expect(asked.map((request) => request.request)).toEqual([
      { tool: 'bash', command: 'ls -la' },
      { tool: 'read', path: '/etc/shadow' },
    ]);
    expect(asked[0]?.toolCallId).toBe('toolu_1');
    expect(cwd).not.toBe('');
    const answers = fake.record().input.filter((line) => line.type === 'control_response');
    expect(answers[0]).toEqual({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: 'q1',
        response: { behavior: 'allow', updatedInput: { command: 'ls -la' } },
      },
    });
    expect(answers[1]).toEqual({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: 'q2',
        response: {
          behavior: 'deny',
          message: "Denied by skillhost's policy (deny-rule: Read(/etc/**)): secrets",
        },
      },
    });
    await session.close();
  });

  it('puts every tool call through the policy with a PreToolUse hook, even those it would not ask about', async () => {
    const asked: CliPermissionRequest[] = [];
    const { fake, session } = await start(
      {
        turns: [
          [
            { write: m.init() },
            {
              preTool: {
                id: 'h1',
                tool: 'Bash',
                input: { command: 'echo hi' },
                toolUseId: 'toolu_1',
              },
            },
            { await: 'h1' },
            { preTool: { id: 'h2', tool: 'Bash', input: { command: 'ls' }, toolUseId: 'toolu_2' } },
            { await: 'h2' },
            { write: m.result() },
          ],
        ],
      },
      {
        permissions: async (request) => {
          asked.push(request);
          return request.request?.command === 'ls'
            ? { behavior: 'deny', rule: 'deny-rule: Bash(ls:*)', reason: 'not listing' }
            : { behavior: 'allow', scope: 'once' };
        },
      },
    );
    await turn(session);
    await session.close();
    expect(asked.map((request) => [request.toolCallId, request.request])).toEqual([
      ['toolu_1', { tool: 'bash', command: 'echo hi' }],
      ['toolu_2', { tool: 'bash', command: 'ls' }],
    ]);
    const answers = fake.record().input.filter((line) => line.type === 'control_response');
    expect(answers.map((line) => line.response)).toEqual([
      {
        subtype: 'success',
        request_id: 'h1',
        response: {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            permissionDecisionReason: "Allowed by skillhost's policy",
          },
        },
      },
      {
        subtype: 'success',
        request_id: 'h2',
        response: {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason:
              "Denied by skillhost's policy (deny-rule: Bash(ls:*)): not listing",
          },
        },
      },
    ]);
  });

  it('withdraws a question on control_cancel_request: the late answer is never sent', async () => {
    let release: () => void = () => {};
    let signal: AbortSignal | undefined;
    const { fake, session } = await start(
      {
        turns: [
          [
            { write: m.init() },
            { ask: { id: 'q1', tool: 'Bash', input: { command: 'make' } } },
            { sleep: 50 },
            { cancel: 'q1' },
            { sleep: 100 },
            { write: m.result({ subtype: 'success', result: 'Stopped.' }) },
          ],
        ],
      },
      {
        permissions: (request) => {
          signal = request.signal;
          return new Promise((resolve) => {
            release = () => resolve({ behavior: 'allow', scope: 'once' });
          });
        },
      },
    );
    await turn(session);
    expect(signal?.aborted).toBe(true);
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await session.close();
    expect(fake.record().input.filter((line) => line.type === 'control_response')).toEqual([]);
  });

  it('refuses a control request it does not know, so the agent never waits for an answer', async () => {
    const { fake, session } = await start({
      turns: [
        [
          { write: m.init() },
          { other: { id: 'x1', subtype: 'elicitation' } },
          { await: 'x1' },
          { write: m.result() },
        ],
      ],
    });
    await turn(session);
    expect(fake.record().input.find((line) => line.type === 'control_response')).toEqual({
      type: 'control_response',
      response: {
        subtype: 'error',
        request_id: 'x1',
        error: 'skillhost does not answer elicitation requests',
      },
    });
    await session.close();
  });

  it('registers the SessionStart hook and gives back the context after a compaction', async () => {
    const { fake, session } = await start(
      {
        turns: [
          [
            { write: m.init() },
            {
              write: {
                type: 'system',
                subtype: 'compact_boundary',
                compact_metadata: { trigger: 'auto', pre_tokens: 190_000, post_tokens: 3_000 },
              },
            },
            { hook: { id: 'h1', source: 'compact' } },
            { await: 'h1' },
            { write: m.result() },
          ],
        ],
      },
      { onSessionStart: () => 'SKILLS-STATE-BLOCK' },
    );
    const events = await turn(session);
    expect(ofType(events, 'compaction')).toEqual([
      {
        type: 'compaction',
        trigger: 'agent',
        agentTrigger: 'auto',
        preTokens: 190_000,
        postTokens: 3_000,
      },
    ]);
    const input = fake.record().input;
    expect(input[0].request.hooks).toEqual({
      PreToolUse: [
        { hookCallbackIds: ['skillhost_pre_tool_use'], timeout: 86_400, onFailure: 'block' },
      ],
      SessionStart: [{ hookCallbackIds: ['skillhost_session_start'] }],
    });
    expect(input.find((line) => line.type === 'control_response')?.response).toEqual({
      subtype: 'success',
      request_id: 'h1',
      response: {
        hookSpecificOutput: {
          hookEventName: 'SessionStart',
          additionalContext: 'SKILLS-STATE-BLOCK',
        },
      },
    });
    await session.close();
  });
});

describe('the claude driver: events', () => {
  it('says text once when the partial messages and the final message both carry it', async () => {
    const { session } = await start({
      turns: [
        [
          { write: m.init() },
          { write: m.messageStart('msg_1') },
          { write: m.delta('Hel') },
          { write: m.delta('lo, ') },
          { write: m.assistant('msg_1', [{ type: 'text', text: 'Hello, ' }]) },
          { write: m.delta('world.') },
          { write: m.assistant('msg_1', [{ type: 'text', text: 'world.' }]) },
          // A final message with no partial messages before it.
          { write: m.assistant('msg_2', [{ type: 'text', text: 'Second.' }]) },
          { write: m.result({ result: 'Hello, world.Second.' }) },
        ],
      ],
    });
    const events = await turn(session);
    expect(
      ofType(events, 'text')
        .map((event) => event.text)
        .join(''),
    ).toBe('Hello, world.Second.');
    expect(ofType(events, 'step').map((event) => event.step)).toEqual([1, 2]);
    expect(events[0]).toMatchObject({
      type: 'start',
      provider: 'claude',
      model: 'claude-test-1',
      agentSession: 'session-1',
      agentVersion: '2.1.332',
    });
    await session.close();
  });

  it('maps tool calls, results (a denial coded), usage with the turn cost, and the end', async () => {
    const { session } = await start({
      turns: [
        [
          { write: m.init() },
          {
            write: m.assistant('msg_1', [
              {
                type: 'tool_use',
                id: 'toolu_1',
                name: 'mcp__skillhost__skillhost_activate',
                input: { name: 'x' },
              },
            ]),
          },
          { write: m.toolResult('toolu_1', 'BODY') },
          {
            write: m.assistant('msg_2', [
              { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'rm -rf /' } },
            ]),
          },
          {
            write: m.toolResult('toolu_2', 'Denied', true, {
              tool_result_meta: [{ id: 'toolu_2', non_execution_kind: 'permission-rule' }],
            }),
          },
          { write: m.result({ total_cost_usd: 0.25 }) },
        ],
        [{ write: m.result({ total_cost_usd: 0.4 }) }],
      ],
    });
    const events = await turn(session);
    expect(ofType(events, 'tool-call')).toEqual([
      {
        type: 'tool-call',
        step: 1,
        id: 'toolu_1',
        name: 'mcp__skillhost__skillhost_activate',
        input: { name: 'x' },
      },
      { type: 'tool-call', step: 2, id: 'toolu_2', name: 'Bash', input: { command: 'rm -rf /' } },
    ]);
    expect(ofType(events, 'tool-result')).toEqual([
      {
        type: 'tool-result',
        step: 1,
        id: 'toolu_1',
        name: 'mcp__skillhost__skillhost_activate',
        isError: false,
        code: null,
        bytes: 4,
        text: 'BODY',
      },
      {
        type: 'tool-result',
        step: 2,
        id: 'toolu_2',
        name: 'Bash',
        isError: true,
        code: 'PERMISSION_DENIED',
        bytes: 6,
        text: 'Denied',
      },
    ]);
    expect(ofType(events, 'usage')).toEqual([
      {
        type: 'usage',
        step: 2,
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 },
        finishReason: 'end_turn',
        costUsd: 0.25,
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'done', steps: 2, text: 'Done.' });
    // The second turn costs what it added to the session's total.
    const second = await turn(session, 'and again');
    expect(ofType(second, 'usage')[0]?.costUsd).toBeCloseTo(0.15);
    await session.close();
  });

  it('ends a turn that hit --max-turns as a limit', async () => {
    const { session } = await start({
      turns: [
        [
          { write: m.init() },
          {
            write: m.result({
              subtype: 'error_max_turns',
              is_error: true,
              terminal_reason: 'max_turns',
              errors: ['Reached maximum number of turns (1)'],
              result: undefined,
            }),
          },
        ],
      ],
    });
    const events = await turn(session);
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'limit',
      limit: 'steps',
      code: 'AGENT_LIMIT_REACHED',
      reason: 'Reached maximum number of turns (1)',
    });
    await session.close();
  });

  it('classifies a login error, with the login hint, and says nothing of its synthetic text', async () => {
    const { session } = await start({
      turns: [
        [
          { write: m.init() },
          {
            write: {
              type: 'assistant',
              message: {
                id: 'e1',
                model: '<synthetic>',
                content: [{ type: 'text', text: 'Not logged in · Please run /login' }],
              },
              error: 'authentication_failed',
              is_api_error_message: true,
              parent_tool_use_id: null,
            },
          },
          {
            write: m.result({
              is_error: true,
              terminal_reason: 'api_error',
              result: 'Not logged in · Please run /login',
            }),
          },
          { exit: 1 },
        ],
      ],
    });
    const events = await turn(session);
    expect(ofType(events, 'text')).toEqual([]);
    expect(ofType(events, 'error')).toEqual([
      {
        type: 'error',
        code: 'CLI_AGENT_LOGIN_REQUIRED',
        message: 'Not logged in · Please run /login',
        hint: expect.stringContaining('/login'),
      },
    ]);
    expect(events.at(-1)).toMatchObject({ status: 'failed', code: 'CLI_AGENT_LOGIN_REQUIRED' });
    await session.close();
  });

  it.each([
    [{ api_error_status: 429, api_error_type: 'rate_limit_error' }, 'MODEL_RATE_LIMITED'],
    [{ api_error_status: 529, api_error_type: 'overloaded_error' }, 'MODEL_OVERLOADED'],
    [{ api_error_status: 400, terminal_reason: 'prompt_too_long' }, 'MODEL_CONTEXT_TOO_LONG'],
  ])('reads the JSON on stdout despite a non-zero exit: %j is %s', async (fields, code) => {
    const { session } = await start({
      turns: [
        [
          { write: m.init() },
          {
            write: m.result({
              is_error: true,
              terminal_reason: 'api_error',
              result: 'API Error',
              ...fields,
            }),
          },
          { stderr: 'something went wrong\n' },
          { exit: 1 },
        ],
      ],
    });
    const events = await turn(session);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'failed', code });
    const exit = await session.close();
    expect(exit.code).toBe(1);
  });

  it('fails the turn with the end of stderr when the agent exits before its result', async () => {
    const { session } = await start({
      turns: [[{ write: m.init() }, { stderr: 'Segmentation fault\n' }, { exit: 139 }]],
    });
    const events = await turn(session);
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_FAILED',
      reason: expect.stringContaining('Segmentation fault'),
    });
  });
});

describe('the claude driver: stopping', () => {
  it('kills a child that ignores SIGTERM, and the processes it started', async () => {
    const { fake, session } = await start({
      turns: [[{ write: m.init() }, { stubborn: true }, { write: m.result() }]],
    });
    await turn(session);
    const { pid, childPid } = fake.record();
    expect(childPid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    expect(alive(childPid as number)).toBe(true);
    const exit = await session.close();
    expect(exit.stopped).toBe('killed');
    expect(exit.signal).toBe('SIGKILL');
    expect(alive(pid)).toBe(false);
    // The grandchild was killed with its group (it may linger as a zombie of init for a moment).
    for (let tries = 0; tries < 40 && alive(childPid as number); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(alive(childPid as number)).toBe(false);
  });

  it('stops a turn that goes silent longer than the idle timeout, but not while an approval waits', async () => {
    let waited = false;
    const { session } = await start(
      {
        turns: [
          [
            { write: m.init() },
            { ask: { id: 'q1', tool: 'Bash', input: { command: 'ls' } } },
            { await: 'q1' },
            { sleep: 8_000 },
          ],
        ],
      },
      {
        // The fake must answer initialize within it too: wide enough for a loaded machine.
        idleTimeoutMs: 1_500,
        permissions: async () => {
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          waited = true;
          return { behavior: 'allow', scope: 'once' };
        },
      },
    );
    const events = await turn(session);
    expect(waited).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_IDLE_TIMEOUT',
    });
    await session.close();
  });

  it('resets the idle timeout at every event: a long turn that keeps talking is not stopped', async () => {
    const talk = Array.from({ length: 8 }, (_, index) => [
      { sleep: 150 },
      { write: m.assistant(`msg_${index}`, [{ type: 'text', text: `part ${index}` }]) },
    ]).flat();
    const { session } = await start(
      { turns: [[{ write: m.init() }, ...talk, { write: m.result() }]] },
      // Longer than any one silence, shorter than the turn (8 × 150 ms).
      { idleTimeoutMs: 800 },
    );
    const events = await turn(session);
    await session.close();
    expect(ofType(events, 'text').length).toBeGreaterThanOrEqual(8);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'done' });
  });

  it('ends a cancelled turn as interrupted', async () => {
    const { fake, session } = await start({
      turns: [
        [
          { write: m.init() },
          { sleep: 200 },
          { write: m.result({ subtype: 'error_during_execution', is_error: true }) },
        ],
      ],
    });
    const events: LoopEvent[] = [];
    for await (const event of runCliTurn(session, 'long task')) {
      events.push(event);
      if (event.type === 'start') session.cancel();
    }
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'interrupted',
      code: 'AGENT_INTERRUPTED',
    });
    expect(fake.record().input.some((line) => line.request?.subtype === 'interrupt')).toBe(true);
    await session.close();
  });
});

describe('the claude driver: its probe', () => {
  it('says how to install Claude Code when it is missing, and what to use instead', async () => {
    const driver = createClaudeDriver({
      command: '/nonexistent/claude',
      env: { PATH: '/usr/bin' },
      cwd: tempDir(),
    });
    await expect(driver.probe()).rejects.toMatchObject({
      code: 'CLI_AGENT_NOT_INSTALLED',
      message: expect.stringMatching(
        /npm install -g @anthropic-ai\/claude-code.*--provider anthropic/,
      ),
    });
  });

  it('refuses a version below the minimum, and runs the probe once', async () => {
    const fake = fakeClaude({ version: '1.0.9' });
    const driver = createClaudeDriver({
      command: fake.command,
      commandPrefix: fake.prefix,
      env: fake.env,
      cwd: tempDir(),
    });
    await expect(driver.probe()).rejects.toMatchObject({
      code: 'CLI_AGENT_VERSION_UNSUPPORTED',
      message: expect.stringContaining('1.0.9 is older than 2.1.0'),
    });
    const good = fakeClaude({ version: '2.1.332' });
    const current = createClaudeDriver({
      command: good.command,
      commandPrefix: good.prefix,
      env: good.env,
      cwd: tempDir(),
    });
    const first = current.probe();
    expect(current.probe()).toBe(first);
    await expect(first).resolves.toEqual({ version: '2.1.332', minimum: '2.1.0' });
  });
});

describe('the claude driver with the policy and the broker', () => {
  it('asks the broker what the policy would ask, and denies what it denies, naming the rule', async () => {
    const config: PolicyConfig = {
      tools: ['bash', 'read', 'activate_skill'],
      deny: ['Bash(rm:*)'],
    };
    const requests: ApprovalRequest[] = [];
    const broker = new ApprovalBroker({
      hash: sha256,
      ask: async () => ({ decision: 'once' }),
      onRequest: (request) => requests.push(request),
    });
    const decided: ToolRequest[] = [];
    const permissions = policyPermissions({
      authorize: (request) => {
        decided.push(request);
        return evaluate(request, { config, active: [] });
      },
      confirm: broker.confirm,
      beginCall: (id) => broker.beginCall(id),
      workspace: '/work/project',
    });
    const { fake, session } = await start(
      {
        turns: [
          [
            { write: m.init() },
            {
              ask: {
                id: 'q1',
                tool: 'Bash',
                input: { command: 'git status' },
                toolUseId: 'toolu_1',
              },
            },
            { await: 'q1' },
            { ask: { id: 'q2', tool: 'Bash', input: { command: 'rm -rf build' } } },
            { await: 'q2' },
            { ask: { id: 'q3', tool: 'mcp__skillhost__skillhost_activate', input: { name: 'x' } } },
            { await: 'q3' },
            { ask: { id: 'q4', tool: 'Skill', input: { skill: 'x' } } },
            { await: 'q4' },
            { write: m.result() },
          ],
        ],
      },
      { permissions },
    );
    await turn(session);
    await session.close();
    const answers = Object.fromEntries(
      fake
        .record()
        .input.filter((line) => line.type === 'control_response')
        .map((line) => [line.response.request_id, line.response.response]),
    );
    expect(answers.q1).toEqual({ behavior: 'allow', updatedInput: { command: 'git status' } });
    expect(answers.q2.behavior).toBe('deny');
    expect(answers.q2.message).toContain('deny-rule: Bash(rm:*)');
    expect(answers.q3.behavior).toBe('allow');
    expect(answers.q4).toEqual({
      behavior: 'deny',
      message:
        "Denied by skillhost's policy (ceiling): skillhost's policy has no tool for 'Skill', so it is not allowed",
    });
    // Only the ask went to the broker, tied to the tool call, with the exact command.
    expect(requests).toHaveLength(1);
    expect(requests[0]?.toolCallId).toBe('toolu_1');
    expect(requests[0]?.question).toMatchObject({
      kind: 'tool',
      tool: 'bash',
      agent: 'claude',
      input: { command: 'git status' },
    });
    expect(decided.map((request) => request.tool)).toEqual(['bash', 'bash', 'activate_skill']);
  });
});
