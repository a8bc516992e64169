import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliMcpServer, LoopEvent } from '../../src/internal.js';
import { createCliAgentDriver, cursorPrintWarning } from '../../src/node/cli-agents.js';
import { cursorPrintArguments } from '../../src/node/cursor-print.js';
import { cursorPrintConfig } from '../../src/node/cursor-print-stream.js';
import { ofType, turn } from '../helpers/cli-turns.js';
import { type CursorScenario, fakeCursor, cursorMessages as m } from '../helpers/fake-cursor.js';
import { tempDir } from '../helpers/temp.js';

/** Cursor's print mode (`--cursor-print`), against a fake `agent` that records each turn's run. */

const SERVER: CliMcpServer = {
  transport: 'http',
  name: 'skillhost',
  url: 'http://127.0.0.1:4321/mcp',
  headers: { Authorization: 'Bearer SECRET-OF-THE-RUN' },
};
const SYSTEM = 'You are the code analyst. SYSTEM-PROMPT-MARKER';

async function start(
  scenario: CursorScenario,
  options: { model?: string; idleTimeoutMs?: number } = {},
) {
  const fake = fakeCursor(scenario);
  const cwd = tempDir('skillhost-cursor-cwd-');
  const temp = tempDir('skillhost-cursor-tmp-');
  const driver = createCliAgentDriver({
    provider: 'cursor',
    cursorPrint: true,
    command: fake.command,
    commandPrefix: fake.prefix,
    env: fake.env,
    cwd,
    tempDir: temp,
    policy: { tools: ['read', 'bash', 'glob'], deny: ['Bash(git push:*)', 'Read(secrets/**)'] },
  });
  await driver.probe();
  const session = await driver.start({
    system: SYSTEM,
    cwd,
    env: fake.env,
    mcpServer: SERVER,
    permissions: async () => {
      throw new Error('print mode never asks');
    },
    closeGraceMs: 300,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
  });
  return { fake, session, cwd, temp };
}

const TURN = [
  { write: m.init() },
  { write: m.assistant('Looking at the files.') },
  { write: m.tool('started', 'c1', { readToolCall: { args: { path: 'README.md' } } }) },
  {
    write: m.tool('completed', 'c1', {
      readToolCall: { args: { path: 'README.md' }, result: { success: { content: '# Hi' } } },
    }),
  },
  {
    write: m.tool('started', 'c2', {
      mcpToolCall: { args: { toolName: 'skillhost_activate', args: { name: 'code-analysis' } } },
    }),
  },
  {
    write: m.tool('completed', 'c2', {
      mcpToolCall: {
        args: { toolName: 'skillhost_activate', args: { name: 'code-analysis' } },
        result: { error: { message: 'denied by the policy' } },
      },
    }),
  },
  { write: m.assistant('All fine.') },
  { write: m.result('Looking at the files.All fine.') },
];

describe("Cursor's print mode: the command line and its settings", () => {
  it('never passes --force, keeps the prompt off argv, and gives its settings in a private folder removed after', async () => {
    const { fake, session, temp } = await start({
      turns: [TURN, [{ write: m.init() }, { write: m.result('Again.') }]],
    });
    const first = await turn(session, 'Review src/');
    expect(first.at(-1)).toMatchObject({
      type: 'end',
      status: 'done',
      text: 'Looking at the files.All fine.',
    });
    await turn(session, 'And now?');
    await session.close();
    const [one, two] = fake.record();
    for (const run of [one, two]) {
      expect(run?.argv.join(' ')).not.toMatch(
        /--force|--yolo|(^| )-f( |$)|SYSTEM-PROMPT-MARKER|SECRET/,
      );
      expect(run?.argv).toEqual(
        expect.arrayContaining(['-p', '--output-format', 'stream-json', '--approve-mcps']),
      );
    }
    expect(one?.argv.some((arg) => arg.startsWith('--model'))).toBe(false);
    expect(one?.argv.some((arg) => arg.startsWith('--resume'))).toBe(false);
    // The instructions go with the first prompt, on standard input; the next turn continues the chat.
    expect(one?.prompt).toContain('SYSTEM-PROMPT-MARKER');
    expect(one?.prompt).toContain('Review src/');
    expect(two?.argv).toContain('--resume=chat-1');
    expect(two?.prompt).not.toContain('SYSTEM-PROMPT-MARKER');
    expect(two?.prompt).toContain('And now?');
    // Our MCP server and the policy's permissions, readable only by the user, gone at the end.
    const dir = one?.configDir as string;
    expect(dir.startsWith(temp)).toBe(true);
    expect(one?.files['mcp.json']?.mode).toBe(0o600);
    expect(JSON.parse(one?.files['mcp.json']?.text ?? '{}').mcpServers.skillhost).toEqual({
      url: SERVER.url,
      headers: { Authorization: 'Bearer SECRET-OF-THE-RUN' },
    });
    expect(JSON.parse(one?.files['cli-config.json']?.text ?? '{}').permissions).toEqual({
      allow: ['Read(**)'],
      deny: ['Read(secrets/**)', 'Shell(git)', 'Write(**)'],
    });
    expect(existsSync(dir)).toBe(false);
  });

  it('passes the model only when chosen, as one argument', async () => {
    const { fake, session } = await start(
      { turns: [[{ write: m.init() }, { write: m.result('ok') }]] },
      { model: 'auto' },
    );
    await turn(session, 'go');
    await session.close();
    expect(fake.record()[0]?.argv).toContain('--model=auto');
    expect(() => cursorPrintArguments({ workspace: '/w', model: '--force' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
    expect(() => cursorPrintArguments({ workspace: '/w', resume: '-f' })).toThrow(
      expect.objectContaining({ code: 'SESSION_NOT_FOUND' }),
    );
  });

  it('denies what the policy denies, broader never narrower, and allows no command or write', () => {
    const config = JSON.parse(
      cursorPrintConfig({
        tools: ['bash', 'read', 'write'],
        defaults: { edit: 'deny' },
        deny: ['Bash(rm -rf:*)', 'Write(.github/**)', 'WebFetch'],
      }),
    );
    expect(config.permissions.allow).toEqual(['Read(**)']);
    expect(config.permissions.deny).toEqual(['Shell(rm)', 'Write(**)', 'Write(.github/**)']);
    const noTools = JSON.parse(cursorPrintConfig({ tools: [] }));
    expect(noTools.permissions).toEqual({ allow: [], deny: ['Read(**)', 'Shell(*)', 'Write(**)'] });
  });
});

describe("Cursor's print mode: events and failures", () => {
  it('maps the start, text, tool calls and results once each, and the end', async () => {
    const { session } = await start({ turns: [TURN] });
    const events = await turn(session, 'Review src/');
    await session.close();
    expect(ofType(events, 'start')).toEqual([
      expect.objectContaining({ provider: 'cursor', model: 'Composer 1', agentSession: 'chat-1' }),
    ]);
    expect(ofType(events, 'text').map((event) => event.text)).toEqual([
      'Looking at the files.',
      'All fine.',
    ]);
    expect(ofType(events, 'tool-call').map((event) => [event.name, event.input])).toEqual([
      ['read', { path: 'README.md' }],
      ['skillhost_activate', { name: 'code-analysis' }],
    ]);
    expect(ofType(events, 'tool-result').map((event) => [event.name, event.isError])).toEqual([
      ['read', false],
      ['skillhost_activate', true],
    ]);
    expect(session.agentSession).toBe('chat-1');
    expect(session.model).toBe('Composer 1');
  });

  it('classifies a login error from its error output when it exits without a result', async () => {
    const { session } = await start({
      turns: [
        [{ stderr: 'Error: Authentication required. Please run agent login\n' }, { exit: 1 }],
      ],
    });
    const events = await turn(session, 'go');
    await session.close();
    expect(ofType(events, 'error')[0]).toMatchObject({
      code: 'CLI_AGENT_LOGIN_REQUIRED',
      hint: expect.stringContaining('CURSOR_API_KEY'),
    });
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_LOGIN_REQUIRED',
    });
  });

  it('kills a turn that ignores SIGTERM when cancelled, and ends it as interrupted', async () => {
    const { fake, session } = await start({ turns: [[{ write: m.init() }, { stubborn: true }]] });
    const events: LoopEvent[] = [];
    const iterator = session.events[Symbol.asyncIterator]();
    session.send('long task');
    while (true) {
      const next = await iterator.next();
      if (next.done === true) break;
      events.push(next.value);
      if (next.value.type === 'start') session.cancel();
      if (next.value.type === 'end') break;
    }
    await session.close();
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'interrupted',
      code: 'AGENT_INTERRUPTED',
    });
    const pid = fake.record()[0]?.pid as number;
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('stops a turn that says nothing for the idle timeout', async () => {
    const { session } = await start(
      { turns: [[{ write: m.init() }, { sleep: 5_000 }]] },
      { idleTimeoutMs: 200 },
    );
    const events = await turn(session, 'go');
    await session.close();
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_IDLE_TIMEOUT',
    });
  });
});

describe('when print mode may be used', () => {
  it('only when no question would be left to ask: the policy asks about nothing, or --yes approves every call', () => {
    expect(() => cursorPrintWarning({ tools: ['bash'] })).toThrow(
      expect.objectContaining({
        code: 'CLI_AGENT_MODE_UNSAFE',
        message: expect.stringContaining('cannot ask for approval'),
      }),
    );
    expect(cursorPrintWarning({ tools: ['bash'] }, { approveAll: true })).toContain(
      'cannot ask for approval',
    );
  });
});

describe("Cursor's print mode: its private folder", () => {
  it('is readable only by the user while the session runs', async () => {
    const { fake, session } = await start({
      turns: [[{ write: m.init() }, { write: m.result('ok') }]],
    });
    await turn(session, 'go');
    const dir = fake.record()[0]?.configDir as string;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await session.close();
  });
});
