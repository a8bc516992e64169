import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startModelServer } from '../helpers/model-servers.js';
import { failure, sse, startFixtureServer, stream } from '../helpers/sse-fixtures.js';
import { tempDir } from '../helpers/temp.js';

const examples = resolve('examples');
const base = [
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
];
const KEY = 'sk-ant-api03-TEST-KEY-never-printed-0123456789';

function everything(home: string): string {
  const folder = join(home, '.skillhost');
  const sessions = join(folder, 'sessions');
  const files = [
    join(folder, 'audit.jsonl'),
    ...readdirSync(sessions).map((name) => join(sessions, name)),
  ];
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

describe('skillhost agent run', () => {
  it('runs claude, the default provider, as a command-line agent: not installed, it says how to get it or which API to use', async () => {
    const run = await runCli(['agent', 'run', ...base, 'code-analyst', 'Review it'], {
      env: { PATH: tempDir('skillhost-empty-path-') },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('CLI_AGENT_NOT_INSTALLED');
    expect(run.stderr).toContain('--provider anthropic');
  });

  it('--catalog-budget cuts the agent catalog, and the session log records what its model was shown', async () => {
    const home = tempDir('skillhost-home-');
    const server = await startModelServer({ anthropic: [{ text: 'Done.' }] });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const bad = await runCli(
      [
        'agent',
        'run',
        ...base,
        '--provider',
        'anthropic',
        '--catalog-budget',
        '0',
        'code-analyst',
        'x',
      ],
      { home, env },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "option '--catalog-budget' needs a positive whole number, got '0'",
    );
    const run = await runCli(
      [
        'agent',
        'run',
        ...base,
        '--provider',
        'anthropic',
        '--catalog-budget',
        '120',
        'code-analyst',
        'Review src/',
      ],
      { home, env },
    );
    expect(run.code).toBe(0);
    const id = /session ([0-9a-f-]{36})/.exec(run.stderr)?.[1] as string;
    const record = readFileSync(join(home, '.skillhost', 'sessions', `${id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.type === 'catalog') as {
      budget: number;
      hash: string;
      tokens: number;
      skills: Array<{ name: string; level: string; reason: string }>;
    };
    expect(record.budget).toBe(120);
    expect(record.tokens).toBeLessThanOrEqual(120);
    const cut = record.skills.filter((skill) => skill.level !== 'full');
    expect(cut.length).toBeGreaterThan(0);
    for (const skill of cut) expect(skill.reason).toMatch(/budget/);
    const system = server.requests[0]?.body.system[0].text as string;
    const catalogText = /<available_skills>[\s\S]*<\/available_skills>/.exec(system)?.[0] ?? '';
    expect(createHash('sha256').update(catalogText).digest('hex')).toBe(record.hash);
    // What the record says was cut is cut in what the model was sent.
    for (const skill of cut.filter((item) => item.level === 'hidden'))
      expect(catalogText).not.toContain(`<name>${skill.name}</name>`);
  });

  it('runs the example agent against the Messages API, keeps the session, and never shows the key', async () => {
    const home = tempDir('skillhost-home-');
    const server = await startModelServer({
      anthropic: [
        {
          toolCalls: [
            {
              id: 'toolu_1',
              name: 'skillhost_read',
              input: { name: 'code-analysis', path: 'references/checklist.md' },
            },
          ],
        },
        { text: 'No findings: the code is fine.' },
        { text: 'Still fine.' },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'Review src/'],
      { home, env },
    );
    expect(run.stderr).toContain('▸ skillhost_read code-analysis references/checklist.md … ok');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No findings: the code is fine.');
    // The system prompt: instructions, the preloaded skill headed by its directory, then the catalog.
    const system = server.requests[0]?.body.system[0].text as string;
    expect(system.startsWith('# Code analyst')).toBe(true);
    expect(system).toContain(`Skill directory: ${join(examples, 'skills', 'code-analysis')}`);
    expect(system).toContain('csv-summary');
    expect(server.requests[1]?.body.system[0].text).toBe(system);
    const id = /session ([0-9a-f-]{36})/.exec(run.stderr)?.[1] as string;
    expect(id).toBeDefined();

    const list = await runCli(['sessions', 'list', '--json'], { home, env });
    expect(JSON.parse(list.stdout).sessions).toEqual([
      expect.objectContaining({ id, agent: 'code-analyst', provider: 'anthropic', status: 'done' }),
    ]);
    const show = await runCli(['sessions', 'show', id], { home, env });
    expect(show.stdout).toContain('▸ skillhost_read');
    expect(show.stdout).toContain('No findings');

    // Resume: the history goes along, then the new task.
    const again = await runCli(
      [
        'agent',
        'run',
        ...base,
        '--provider',
        'anthropic',
        '--resume',
        id,
        'code-analyst',
        'And now?',
      ],
      { home, env },
    );
    expect(again.code).toBe(0);
    const messages = server.requests[2]?.body.messages as Array<{ role: string }>;
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    for (const text of [run.stdout, run.stderr, again.stdout, again.stderr, everything(home)])
      expect(text).not.toContain(KEY);
    // Each run recorded the catalog its model was shown: the system prompt's, hash and all.
    const records = readFileSync(join(home, '.skillhost', 'sessions', `${id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      records
        .map((record) => record.type)
        .filter((type) => type !== 'event' && type !== 'message' && type !== 'ledger'),
    ).toEqual(['session', 'catalog', 'skills', 'resume', 'catalog', 'skills']);
    const catalogText = /<available_skills>[\s\S]*<\/available_skills>/.exec(system)?.[0] ?? '';
    const hash = createHash('sha256').update(catalogText).digest('hex');
    for (const record of records.filter((item) => item.type === 'catalog'))
      expect(record).toMatchObject({
        format: 'xml',
        budget: null,
        hash,
        preloaded: ['code-analysis'],
        skills: ['csv-summary', 'figures-report', 'release-notes'].map((name, index) => ({
          name,
          trusted: true,
          level: 'full',
          rank: index + 1,
          tokens: expect.any(Number),
          reason: expect.any(String),
        })),
      });
    const audit = await runCli(['audit', 'verify'], { home, env });
    expect(audit.code).toBe(0);
    expect(readFileSync(join(home, '.skillhost', 'audit.jsonl'), 'utf8')).toContain(
      '"model-request"',
    );
  });

  it('prints versioned JSON Lines events with --json', async () => {
    const server = await startModelServer({ anthropic: [{ text: 'Hello.' }] });
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', '--json', 'code-analyst', 'Say hello'],
      { env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url } },
    );
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.every((event) => event.v === 1 && typeof event.session === 'string')).toBe(true);
    expect(events.map((event) => event.type)).toEqual(['start', 'step', 'text', 'usage', 'end']);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'done', text: 'Hello.' });
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('denies a script run without a terminal and exits 3, naming --yes and --allow', async () => {
    const server = await startModelServer({
      anthropic: [
        {
          toolCalls: [
            {
              id: 'toolu_1',
              name: 'skillhost_run',
              input: { name: 'code-analysis', script: 'scripts/count_lines.sh' },
            },
          ],
        },
      ],
    });
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'Count lines'],
      { env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url } },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--yes');
    expect(run.stderr).toContain('--allow');
  });

  it('stops at --max-steps with exit 4, and on a model request that fails with exit 1', async () => {
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_search', input: { query: 'csv' } }] },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const limited = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', '--max-steps', '1', 'code-analyst', 'x'],
      { env },
    );
    expect(limited.code).toBe(4);
    // The script has no more turns: a 500 the server says not to retry... then the loop's retries, then failure.
    const missing = await runCli(
      [
        'agent',
        'run',
        ...base,
        '--provider',
        'anthropic',
        '--model',
        'claude-x-1',
        'code-analyst',
        'x',
      ],
      { env: { ...env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('MODEL_REQUEST_FAILED');
  }, 30_000);

  it('is interrupted by Ctrl-C with exit 130 and can be resumed', async () => {
    const home = tempDir('skillhost-home-');
    const server = await startModelServer({ anthropic: [{ hang: true }, { text: 'Resumed.' }] });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'x'],
      {
        home,
        env,
        interrupt: (listener) => {
          const timer = setInterval(() => {
            if (server.requests.length > 0) {
              clearInterval(timer);
              listener();
            }
          }, 2);
          return () => clearInterval(timer);
        },
      },
    );
    expect(run.code).toBe(130);
    const id = /--resume ([0-9a-f-]{36})/.exec(run.stderr)?.[1] as string;
    const again = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', '--resume', id, 'code-analyst'],
      {
        home,
        env,
      },
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Resumed.');
  });

  it('asks at the terminal: view the input, then no with a reason the model reads', async () => {
    const script = {
      id: 'toolu_1',
      name: 'skillhost_run',
      input: { name: 'code-analysis', script: 'scripts/count_lines.sh', args: ['src'] },
    };
    const server = await startModelServer({
      anthropic: [{ toolCalls: [script] }, { text: 'Understood, no script.' }],
    });
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'Count lines'],
      {
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
        input: ['v', 'n', 'too risky today'],
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('? run scripts/count_lines.sh "src" (sh) of code-analysis');
    expect(run.stderr).toContain('"contentHash"');
    expect(run.stderr).toContain('input sha256 ');
    const result = JSON.stringify(server.requests[1]?.body.messages.at(-1));
    expect(result).toContain('PERMISSION_DENIED');
    expect(result).toContain('The user refused: too risky today');
  });

  it('remembers "always for this session" across --resume', async () => {
    const home = tempDir('skillhost-home-');
    const script = (id: string) => ({
      toolCalls: [
        {
          id,
          name: 'skillhost_run',
          input: { name: 'code-analysis', script: 'scripts/count_lines.sh' },
        },
      ],
    });
    const server = await startModelServer({
      anthropic: [script('toolu_1'), { text: 'Counted.' }, script('toolu_2'), { text: 'Again.' }],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const first = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'Count'],
      {
        home,
        env,
        input: ['s'],
      },
    );
    expect(first.code).toBe(0);
    const id = /session ([0-9a-f-]{36})/.exec(first.stderr)?.[1] as string;
    // No terminal now: the grant given for the session answers.
    const again = await runCli(
      [
        'agent',
        'run',
        ...base,
        '--provider',
        'anthropic',
        '--resume',
        id,
        'code-analyst',
        'Count again',
      ],
      { home, env },
    );
    expect(again.code).toBe(0);
    expect(again.stderr, again.stderr).toContain('(approved for this session)');
  });

  it('reads a key from $SKILLHOST_HOME/keys.json only when no one else can read it', async () => {
    const home = tempDir('skillhost-home-');
    const server = await startModelServer({ anthropic: [{ text: 'Keyed.' }] });
    const keys = join(home, '.skillhost', 'keys.json');
    mkdirSync(join(home, '.skillhost'), { recursive: true });
    writeFileSync(keys, JSON.stringify({ anthropic: KEY }), { mode: 0o644 });
    chmodSync(keys, 0o644);
    const env = { ANTHROPIC_BASE_URL: server.url };
    const args = ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'hi'];
    const open = await runCli(args, { home, env });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('chmod 600');
    expect(server.requests).toHaveLength(0);
    chmodSync(keys, 0o600);
    const ok = await runCli(args, { home, env });
    expect(ok.code).toBe(0);
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    const none = await runCli(args, { env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('MODEL_KEY_MISSING');
    expect(none.stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('runs on an OpenAI-compatible server given with --base-url, with no key', async () => {
    const chunk = (delta: unknown, finish: string | null = null) =>
      sse({
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'qwen2.5-coder:7b',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const server = await startFixtureServer([
      stream([
        chunk({
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'skillhost_search', arguments: '{"query":"csv"}' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ]),
      stream([
        chunk({ role: 'assistant', content: 'Local answer.' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ]),
    ]);
    const run = await runCli([
      'agent',
      'run',
      ...base,
      '--provider',
      'openai-compatible',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'qwen2.5-coder:7b',
      'code-analyst',
      'Which skill reads CSV?',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.map((request) => request.body.model)).toEqual([
      'qwen2.5-coder:7b',
      'qwen2.5-coder:7b',
    ]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(run.stderr).toContain('▸ skillhost_search csv … ok');
  });

  it('keeps even a masked key a provider quotes out of the error it prints', async () => {
    const server = await startFixtureServer([
      failure(401, {
        type: 'error',
        error: {
          type: 'authentication_error',
          message: `Incorrect API key provided: ${KEY.slice(0, 12)}******${KEY.slice(-4)}`,
        },
      }),
    ]);
    const run = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'hi'],
      {
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('MODEL_AUTH_FAILED');
    expect(run.stderr).toContain('Incorrect API key provided: [redacted]');
    expect(run.stderr).not.toContain(KEY.slice(0, 12));
    expect(server.requests).toHaveLength(1);
  });

  it('--resume brings back the skills the session had activated', async () => {
    const home = tempDir('skillhost-home-');
    const activate = (id: string) => ({
      toolCalls: [{ id, name: 'skillhost_activate', input: { name: 'csv-summary' } }],
    });
    const server = await startModelServer({
      anthropic: [
        activate('toolu_1'),
        { text: 'Active.' },
        activate('toolu_2'),
        { text: 'Still.' },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const first = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'CSV'],
      { home, env },
    );
    expect(first.code).toBe(0);
    const id = /session ([0-9a-f-]{36})/.exec(first.stderr)?.[1] as string;
    const show = await runCli(['sessions', 'show', id, '--json'], { home, env });
    expect(JSON.parse(show.stdout).activeSkills).toEqual(['csv-summary']);
    const again = await runCli(
      ['agent', 'run', ...base, '--provider', 'anthropic', '--resume', id, 'code-analyst', 'Again'],
      { home, env },
    );
    expect(again.code).toBe(0);
    // The skill is active again in the resumed run: its body is not sent twice.
    expect(JSON.stringify(server.requests[3]?.body.messages.at(-1))).toContain('is already active');
  });
});

describe("the agent's tools", () => {
  it('are the host tools over its workspace, narrowed by agent.yaml and --tools', async () => {
    const home = tempDir('skillhost-home-');
    const workspace = tempDir('skillhost-tools-workspace-');
    const server = await startModelServer({ anthropic: [{ text: 'ok' }, { text: 'ok' }] });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const argv = ['agent', 'run', ...base, '--provider', 'anthropic', '--workspace', workspace];
    const names = (index: number) =>
      ((server.requests[index]?.body.tools ?? []) as Array<{ name: string }>).map(
        (tool) => tool.name,
      );
    // code-analyst lists /dev/fs/read, /dev/shell and /dev/scripts: no write, even when granted.
    const run = await runCli([...argv, '--workspace-writable', 'code-analyst', 'Look'], {
      home,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(names(0)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
      'workspace_read',
      'workspace_list',
      'workspace_glob',
      'workspace_grep',
      'workspace_bash',
    ]);
    const narrow = await runCli(
      [...argv, '--tools', 'read,activate_skill', 'code-analyst', 'Look'],
      {
        home,
        env,
      },
    );
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(names(1)).toEqual(['skillhost_activate', 'workspace_read']);
  });
});
