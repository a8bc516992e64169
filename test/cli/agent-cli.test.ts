import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeAcpAgent } from '../helpers/fake-acp.js';
import { type FakeScenario, fakeClaude, claudeMessages as m } from '../helpers/fake-claude.js';
import { type CursorScenario, cursorMessages as cm, fakeCursor } from '../helpers/fake-cursor.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `agent run` and `chat` with a command-line agent: a fake `claude` on PATH (the script of
 * test/helpers/fake-claude.ts behind a small launcher) plays Claude Code's control protocol and
 * records its argv, its input and the files its flags name.
 */

const examples = resolve('examples');
const base = [
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
];

function installFake(scenario: FakeScenario) {
  const fake = fakeClaude(scenario);
  const bin = join(fake.dir, 'bin');
  mkdirSync(bin);
  const launcher = join(bin, 'claude');
  writeFileSync(
    launcher,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fake.prefix[0])} "$@"\n`,
  );
  chmodSync(launcher, 0o755);
  const env = { ...fake.env, PATH: `${bin}:${fake.env.PATH}` };
  return { fake, env };
}

function sessionLog(home: string): Array<Record<string, unknown>> {
  const folder = join(home, '.skillhost', 'sessions');
  return readdirSync(folder).flatMap((file) =>
    readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

function audit(home: string): Array<Record<string, unknown>> {
  return readFileSync(join(home, '.skillhost', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The control_response the driver sent for a request id. */
// biome-ignore lint/suspicious/noExplicitAny: protocol messages are arbitrary JSON.
function answerTo(input: any[], id: string): any {
  return input.find((line) => line.type === 'control_response' && line.response?.request_id === id)
    ?.response?.response;
}

const GRANT_AND_DENY = [
  { write: m.init() },
  { preTool: { id: 'h1', tool: 'Bash', input: { command: 'git status' }, toolUseId: 'toolu_1' } },
  { await: 'h1' },
  { preTool: { id: 'h2', tool: 'Bash', input: { command: 'rm -rf src' }, toolUseId: 'toolu_2' } },
  { await: 'h2' },
  { write: m.assistant('msg_1', [{ type: 'text', text: 'Reviewed: all fine.' }]) },
  { write: m.result() },
];

const ANSWER = [
  { write: m.init() },
  { write: m.assistant('msg_1', [{ type: 'text', text: 'Hello back.' }]) },
  { write: m.result() },
];

describe('skillhost agent run with --provider claude', () => {
  it('says how to install Claude Code, or which model API to use, when it is missing', async () => {
    const run = await runCli(['agent', 'run', ...base, 'code-analyst', 'Review it'], {
      env: { PATH: tempDir('skillhost-empty-path-') },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('CLI_AGENT_NOT_INSTALLED');
    expect(run.stderr).toContain('npm install -g @anthropic-ai/claude-code');
    expect(run.stderr).toContain('--provider anthropic');
  });

  it('runs the agent: no bypass flag, the prompt in a private file removed after, the broker and the policy answering', async () => {
    const home = tempDir('skillhost-home-');
    const { fake, env } = installFake({ turns: [GRANT_AND_DENY] });
    const run = await runCli(
      [
        'agent',
        'run',
        ...base,
        'code-analyst',
        'Review src/',
        '--allow',
        'Bash(git status:*)',
        '--deny',
        'Bash(rm:*)',
      ],
      { home, env },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Reviewed: all fine.');
    const record = fake.record() as ReturnType<typeof fake.record> & {
      files: Record<string, { text: string; mode: number; path: string }>;
    };
    const argv = record.argv;
    expect(argv.join(' ')).not.toMatch(/dangerously|bypassPermissions|acceptEdits|dontAsk/);
    expect(argv.join(' ')).not.toContain('Code analyst');
    expect(argv).toContain('--permission-mode');
    expect(argv).toContain('--model=claude-sonnet-4-5');
    expect(argv.find((arg) => arg.startsWith('--tools='))).toBe('--tools=Bash,Glob,Grep,Read');
    expect(argv.find((arg) => arg.startsWith('--disallowedTools='))).toContain('Bash(rm:*)');
    // The agent's instructions and catalog, from a private file that is gone now.
    const prompt = record.files['append-system-prompt-file'];
    expect(prompt?.text).toContain('# Code analyst');
    expect(prompt?.text).toContain('csv-summary');
    expect(prompt?.mode).toBe(0o600);
    expect(existsSync(prompt?.path as string)).toBe(false);
    // Our tools from this process, over HTTP on loopback, behind a secret of the run.
    const mcp = JSON.parse(record.files['mcp-config']?.text ?? '{}').mcpServers.skillhost;
    expect(mcp).toMatchObject({
      type: 'http',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
    });
    expect(mcp.headers.Authorization).toMatch(/^Bearer [0-9a-f]{64}$/);
    expect(argv.join(' ')).not.toContain(mcp.headers.Authorization.slice(7));

    // The command --allow covers: allowed by the broker; the one the policy denies: with the rule.
    expect(answerTo(record.input, 'h1').hookSpecificOutput).toMatchObject({
      permissionDecision: 'allow',
    });
    const denied = answerTo(record.input, 'h2').hookSpecificOutput;
    expect(denied.permissionDecision).toBe('deny');
    expect(denied.permissionDecisionReason).toContain('Bash(rm:*)');

    const decisions = audit(home).filter((line) => line.event === 'permission-decide');
    expect(JSON.stringify(decisions)).toContain('git status');
    expect(JSON.stringify(decisions)).toContain('rm -rf src');
    const agentEvents = audit(home).map((line) => line.event);
    expect(agentEvents).toEqual(expect.arrayContaining(['agent-start', 'agent-end']));

    // The agent's own session id is kept, for --resume.
    const log = sessionLog(home);
    expect(log[0]).toMatchObject({ type: 'session', provider: 'claude', agent: 'code-analyst' });
    expect(log).toContainEqual(expect.objectContaining({ type: 'agent-session', id: 'session-1' }));
    const id = log[0]?.id as string;
    const list = await runCli(['sessions', 'list', '--json'], { home, env });
    expect(JSON.parse(list.stdout).sessions).toEqual([
      expect.objectContaining({ id, agent: 'code-analyst', provider: 'claude', status: 'done' }),
    ]);
    const shown = await runCli(['sessions', 'show', id], { home, env });
    expect(shown.stdout).toContain('Review src/');
    // The turn's answer, as Claude Code's result gives it.
    expect(shown.stdout).toContain('── assistant\nDone.');

    const next = installFake({
      turns: [
        [
          { write: m.init() },
          { write: m.assistant('msg_2', [{ type: 'text', text: 'Again fine.' }]) },
          { write: m.result() },
        ],
      ],
    });
    const resumed = await runCli(
      ['agent', 'run', ...base, 'code-analyst', 'And now?', '--resume', id],
      { home, env: next.env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(next.fake.record().argv).toContain('--resume=session-1');
  });

  it('passes no model when none was chosen, and records the one Claude Code reports', async () => {
    const home = tempDir('skillhost-home-');
    const agents = tempDir('skillhost-agents-');
    mkdirSync(join(agents, 'plain'));
    writeFileSync(
      join(agents, 'plain', 'agent.yaml'),
      'name: plain\ndescription: "An agent that names no model"\n',
    );
    writeFileSync(join(agents, 'plain', 'instructions.md'), '# Plain\n\nAnswer briefly.\n');
    const { fake, env } = installFake({ turns: [ANSWER] });
    const run = await runCli(
      [
        'agent',
        'run',
        '--no-default-sources',
        '--skills',
        join(examples, 'skills'),
        '--agents',
        agents,
        'plain',
        'Hello',
        '--json',
      ],
      { home, env },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(fake.record().argv.some((arg) => arg.startsWith('--model'))).toBe(false);
    const log = sessionLog(home);
    expect(log[0]).toMatchObject({ type: 'session', provider: 'claude', model: '' });
    expect(log).toContainEqual(
      expect.objectContaining({ type: 'agent-session', id: 'session-1', model: 'claude-test-1' }),
    );
    const started = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'start');
    expect(started).toMatchObject({ provider: 'claude', model: 'claude-test-1' });
  });

  it('stops with exit 3 when a call needs an approval and no one can give it', async () => {
    const { env } = installFake({ turns: [GRANT_AND_DENY] });
    const run = await runCli(['agent', 'run', ...base, 'code-analyst', 'Review src/', '--json'], {
      env,
    });
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const events = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      status: 'refused',
      code: 'PERMISSION_REQUIRED',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval-decision', by: 'no-terminal' }),
    );
  });

  it("ends with exit 4 at Claude Code's most turns (--max-steps)", async () => {
    const { fake, env } = installFake({
      turns: [
        [
          { write: m.init() },
          {
            write: m.result({
              subtype: 'error_max_turns',
              is_error: true,
              result: undefined,
              stop_reason: null,
            }),
          },
        ],
      ],
    });
    const run = await runCli(
      ['agent', 'run', ...base, 'code-analyst', 'Review src/', '--max-steps', '3'],
      { env },
    );
    expect(run.code, run.stderr).toBe(4);
    expect(fake.record().argv).toContain('--max-turns=3');
    expect(run.stderr).toContain('limit');
  });

  it('serves our tools to the agent behind the secret, feeds the skill ledger, and gives the skills back after its compaction', async () => {
    const home = tempDir('skillhost-home-');
    const { fake, env } = installFake({
      turns: [
        [
          { write: m.init() },
          { mcp: { noAuth: true, calls: [] } },
          {
            mcp: {
              calls: [
                { tool: 'skillhost_activate', args: { name: 'csv-summary' } },
                {
                  tool: 'skillhost_read',
                  args: { name: 'csv-summary', path: 'assets/sample.csv' },
                },
              ],
            },
          },
          {
            write: {
              type: 'system',
              subtype: 'compact_boundary',
              session_id: 'session-1',
              compact_metadata: { trigger: 'auto', pre_tokens: 150000, post_tokens: 9000 },
            },
          },
          { hook: { id: 's1', source: 'compact' } },
          { await: 's1' },
          { write: m.assistant('msg_1', [{ type: 'text', text: 'Summarised.' }]) },
          { write: m.result() },
        ],
      ],
    });
    const run = await runCli(
      ['agent', 'run', ...base, 'code-analyst', 'Summarise the sample', '--json'],
      { home, env },
    );
    expect(run.code, run.stderr).toBe(0);
    const record = fake.record();
    // Without the run's secret the server answers nothing.
    expect(record.mcp?.[0]?.status).toBe(401);
    const [activated, read] = record.mcp?.[1]?.results ?? [];
    expect(record.mcp?.[1]?.status).toBe(200);
    expect(JSON.stringify(activated)).toContain('<skill_content');
    expect(read?.isError).not.toBe(true);
    // The activation reached the ledger; after the agent's compaction its hook got the skills back.
    const events = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'skill-state', skill: 'csv-summary', state: 'full' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'compaction', trigger: 'agent', agentTrigger: 'auto' }),
    );
    const hook = answerTo(record.input, 's1');
    expect(hook.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(hook.hookSpecificOutput.additionalContext).toContain('csv-summary');
    const trail = audit(home);
    expect(trail.map((line) => line.event)).toEqual(
      expect.arrayContaining(['skill-activate', 'resource-read', 'context-compact']),
    );
    expect(trail.find((line) => line.event === 'context-compact')).toMatchObject({
      details: expect.objectContaining({
        trigger: 'agent',
        agent_trigger: 'auto',
        pre_tokens: 150000,
      }),
    });
    expect(sessionLog(home)).toContainEqual(expect.objectContaining({ type: 'ledger' }));
  });

  it('enforces the policy again in our MCP server: a script run the policy denies is refused even when the agent never asked', async () => {
    const home = tempDir('skillhost-home-');
    const { fake, env } = installFake({
      turns: [
        [
          { write: m.init() },
          {
            mcp: {
              calls: [
                { tool: 'skillhost_activate', args: { name: 'csv-summary' } },
                {
                  tool: 'skillhost_run',
                  args: { name: 'csv-summary', script: 'scripts/summarise.mjs', args: [] },
                },
              ],
            },
          },
          { write: m.result() },
        ],
      ],
    });
    const run = await runCli(
      ['agent', 'run', ...base, 'code-analyst', 'Summarise', '--deny', 'run_skill_script', '--yes'],
      { home, env },
    );
    expect(run.code, run.stderr).toBe(0);
    const [, refused] = fake.record().mcp?.[0]?.results ?? [];
    expect(refused?.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain('PERMISSION_DENIED');
    expect(JSON.stringify(refused)).toContain("The host denies 'run_skill_script'");
  });

  it('interrupts the turn on Ctrl-C with exit 130, and says how to continue', async () => {
    const { fake, env } = installFake({
      turns: [
        [
          { write: m.init() },
          { sleep: 1500 },
          { write: m.result({ subtype: 'error_during_execution', is_error: true }) },
        ],
      ],
    });
    const run = await runCli(['agent', 'run', ...base, 'code-analyst', 'Review src/'], {
      env,
      interrupt: (listener) => {
        const timer = setTimeout(listener, 100);
        return () => clearTimeout(timer);
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('--resume');
    expect(fake.record().input.some((line) => line.request?.subtype === 'interrupt')).toBe(true);
  });

  it("keeps none of Claude Code's own tools without a workspace", async () => {
    const none = installFake({ turns: [[{ write: m.init() }, { write: m.result() }]] });
    const bare = await runCli(
      ['agent', 'run', ...base, 'code-analyst', 'Review', '--no-workspace'],
      { env: none.env },
    );
    expect(bare.code, bare.stderr).toBe(0);
    expect(none.fake.record().argv).toContain('--tools=');
  });

  it('refuses the options only a model API has', async () => {
    const run = await runCli([
      'agent',
      'run',
      ...base,
      'code-analyst',
      'Review',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url is for model APIs');
  });
});

describe('skillhost chat with --provider claude', () => {
  it('keeps one Claude Code for every turn, asks inline, and sends /compact to it', async () => {
    const { fake, env } = installFake({
      turns: [
        [
          { write: m.init() },
          { preTool: { id: 'h1', tool: 'Bash', input: { command: 'ls' }, toolUseId: 'toolu_1' } },
          { await: 'h1' },
          { write: m.assistant('msg_1', [{ type: 'text', text: 'First answer.' }]) },
          { write: m.result() },
        ],
        [
          {
            write: {
              type: 'system',
              subtype: 'compact_boundary',
              compact_metadata: { trigger: 'manual', pre_tokens: 5000, post_tokens: 800 },
            },
          },
          { write: m.result({ result: '' }) },
        ],
        [
          { write: m.assistant('msg_2', [{ type: 'text', text: 'Second answer.' }]) },
          { write: m.result() },
        ],
      ],
    });
    const run = await runCli(['chat', ...base, 'code-analyst'], {
      env,
      input: ['First task', 'y', '/model opus', '/compact', 'Second task', '/exit'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('First answer.');
    expect(run.stdout).toContain('Second answer.');
    expect(run.stderr).toContain('claude: Bash');
    expect(run.stderr).toContain('keeps the model it started with');
    expect(run.stderr).toContain('compacted by claude: about 5,000 → 800 tokens');
    const record = fake.record();
    const users = record.input.filter((line) => line.type === 'user');
    expect(users.map((line) => line.message.content)).toEqual([
      'First task',
      '/compact',
      'Second task',
    ]);
    expect(answerTo(record.input, 'h1').hookSpecificOutput.permissionDecision).toBe('allow');
  });
});

describe('skillhost agent run with --provider acp', () => {
  const OPTIONS = [
    { optionId: 'once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ];
  const ask = (id: string, command: string) => ({
    permission: {
      toolCall: { toolCallId: id, title: command, kind: 'execute', rawInput: { command } },
      options: OPTIONS,
    },
  });

  it('drives the agent of --acp-command: our MCP server in session/new, the broker and the policy answering, session/load on --resume', async () => {
    const home = tempDir('skillhost-home-');
    const fake = fakeAcpAgent({
      loadSession: true,
      prompts: [
        [
          ask('call_1', 'git status'),
          ask('call_2', 'rm -rf src'),
          {
            update: {
              sessionUpdate: 'agent_message_chunk',
              content: { type: 'text', text: 'ACP answer.' },
            },
          },
        ],
      ],
    });
    const line = `${process.execPath} ${fake.prefix[0]} --acp`;
    const args = [
      'agent',
      'run',
      ...base,
      'code-analyst',
      'Review src/',
      '--provider',
      'acp',
      '--model',
      'fake-model',
      '--acp-command',
      line,
      '--allow',
      'Bash(git status:*)',
      '--deny',
      'Bash(rm:*)',
    ];
    const run = await runCli(args, { home, env: fake.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ACP answer.');
    const record = fake.record();
    expect(record.argv).toEqual(['--acp']);
    const opened = record.calls.find((call: unknown[]) => call[0] === 'session/new')?.[1];
    expect(opened.mcpServers).toEqual([
      expect.objectContaining({
        type: 'http',
        name: 'skillhost',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      }),
    ]);
    // The agent's instructions go with the first prompt, not on its command line.
    expect(JSON.stringify(record.prompts[0])).toContain('Code analyst');
    expect(record.answers).toEqual([
      ['permission', { outcome: { outcome: 'selected', optionId: 'once' } }],
      ['permission', { outcome: { outcome: 'selected', optionId: 'no' } }],
    ]);
    const log = sessionLog(home);
    expect(log).toContainEqual(
      expect.objectContaining({ type: 'agent-session', id: 'fake-session-1' }),
    );

    const again = fakeAcpAgent({ loadSession: true, prompts: [[]] });
    const resumed = await runCli(
      [
        'agent',
        'run',
        ...base,
        'code-analyst',
        'And now?',
        '--provider',
        'acp',
        '--model',
        'fake-model',
        '--acp-command',
        `${process.execPath} ${again.prefix[0]}`,
        '--resume',
        log[0]?.id as string,
      ],
      { home, env: again.env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(again.record().calls).toContainEqual([
      'session/load',
      expect.objectContaining({ sessionId: 'fake-session-1' }),
    ]);
  });

  it('needs --acp-command, and takes it only with --provider acp', async () => {
    const missing = await runCli([
      'agent',
      'run',
      ...base,
      'code-analyst',
      'x',
      '--provider',
      'acp',
      '--model',
      'fake-model',
    ]);
    expect(missing.stderr).toContain('CLI_AGENT_COMMAND_INVALID');
    const stray = await runCli([
      'agent',
      'run',
      ...base,
      'code-analyst',
      'x',
      '--acp-command',
      'my-agent --acp',
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--acp-command goes with --provider acp');
  });
});

describe('skillhost agent run with --provider cursor --cursor-print', () => {
  function installCursor(scenario: CursorScenario) {
    const fake = fakeCursor(scenario);
    const bin = join(fake.dir, 'bin');
    mkdirSync(bin);
    const launcher = join(bin, 'agent');
    writeFileSync(
      launcher,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fake.prefix[0])} "$@"\n`,
    );
    chmodSync(launcher, 0o755);
    return { fake, env: { ...fake.env, PATH: `${bin}:${fake.env.PATH}` } };
  }
  const cursorArgs = [
    'agent',
    'run',
    ...base,
    'code-analyst',
    'Review src/',
    '--provider',
    'cursor',
  ];

  it('is refused with a coded reason while a question could be left to ask, before Cursor starts', async () => {
    const { fake, env } = installCursor({ turns: [] });
    const run = await runCli([...cursorArgs, '--cursor-print'], {
      home: tempDir('skillhost-home-'),
      env,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('CLI_AGENT_MODE_UNSAFE');
    expect(run.stderr).toContain("Cursor's print mode cannot ask for approval");
    expect(run.stderr).toContain('--yes');
    expect(existsSync(join(fake.dir, 'record.json'))).toBe(false);
  });

  it('runs print mode with --yes, with a warning, never --force, the instructions on standard input', async () => {
    const home = tempDir('skillhost-home-');
    const { fake, env } = installCursor({
      turns: [
        [
          { write: cm.init() },
          { write: cm.assistant('Print answer.') },
          { write: cm.result('Print answer.') },
        ],
      ],
    });
    const run = await runCli([...cursorArgs, '--cursor-print', '--yes', '--deny', 'Bash(rm:*)'], {
      home,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Print answer.');
    expect(run.stderr).toContain("Cursor's print mode cannot ask for approval");
    const [only] = fake.record();
    expect(only?.argv).toContain('-p');
    expect(only?.argv.join(' ')).not.toMatch(/--force|--yolo|Code analyst/);
    expect(only?.prompt).toContain('# Code analyst');
    expect(JSON.parse(only?.files['cli-config.json']?.text ?? '{}').permissions.deny).toContain(
      'Shell(rm)',
    );
    const mcp = JSON.parse(only?.files['mcp.json']?.text ?? '{}').mcpServers.skillhost;
    expect(mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(sessionLog(home)).toContainEqual(
      expect.objectContaining({ type: 'agent-session', id: 'chat-1' }),
    );
  });

  it('takes --cursor-print only with --provider cursor', async () => {
    const claude = await runCli([
      'agent',
      'run',
      ...base,
      'code-analyst',
      'x',
      '--cursor-print',
      '--yes',
    ]);
    expect(claude.code).toBe(2);
    expect(claude.stderr).toContain('--cursor-print goes with --provider cursor');
    const api = await runCli([
      ...[
        'agent',
        'run',
        ...base,
        'code-analyst',
        'x',
        '--provider',
        'anthropic',
        '--cursor-print',
      ],
    ]);
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('--cursor-print is for a command-line agent');
  });
});
