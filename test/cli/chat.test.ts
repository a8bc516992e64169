import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelCost } from '../../src/agents/prices.js';
import { runCli } from '../helpers/cli.js';
import { startModelServer } from '../helpers/model-servers.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const examples = resolve('examples');
const base = [
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
  '--provider',
  'anthropic',
];
const KEY = 'sk-ant-api03-CHAT-KEY-never-printed-0123456789';

describe('skillhost chat', () => {
  it('needs a terminal, and takes no --json', async () => {
    const piped = await runCli(['chat', ...base, 'code-analyst'], { stdinText: 'hello' });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('skillhost agent run NAME TASK');
    const json = await runCli(['chat', ...base, 'code-analyst', '--json'], { input: [] });
    expect(json.code).toBe(2);
  });

  it('runs turn after turn: streamed answers, a line per call, approvals, the footer, commands', async () => {
    const home = tempDir('skillhost-home-');
    const workspace = writeTree(tempDir('skillhost-chat-workspace-'), {
      'app.py': 'print("hi")\n',
    });
    const server = await startModelServer({
      anthropic: [
        { text: 'Hello! What shall I review?' },
        {
          toolCalls: [
            { id: 'toolu_read', name: 'workspace_read', input: { path: 'app.py' } },
            { id: 'toolu_bash', name: 'workspace_bash', input: { command: 'echo counted' } },
          ],
        },
        { text: 'app.py prints hi.' },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const chat = await runCli(['chat', ...base, '--workspace', workspace, 'code-analyst'], {
      home,
      env,
      input: [
        'hi',
        '/skills',
        '/model haiku',
        '/model gpt-9',
        'Review app.py',
        'n',
        'not now',
        '/nope',
        '/exit',
      ],
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Hello! What shall I review?');
    expect(chat.stdout).toContain('app.py prints hi.');
    expect(chat.stderr).toContain('skillhost chat · code-analyst · anthropic claude-sonnet-4-5');
    expect(chat.stderr).toContain('preloaded  code-analysis');
    expect(chat.stderr).toMatch(/catalog {4}csv-summary/);
    expect(chat.stderr).toContain('anthropic claude-haiku-4-5');
    expect(chat.stderr).toContain('MODEL_UNKNOWN');
    expect(chat.stderr).toContain('▸ workspace_read app.py … ok');
    expect(chat.stderr).toContain('? bash: echo counted');
    expect(chat.stderr).toContain('▸ workspace_bash echo counted … error PERMISSION_DENIED');
    expect(chat.stderr).toContain('Unknown command /nope');
    // The footer: steps, tokens, cost at the model's price, the model that answered.
    const cost = modelCost('claude-haiku-4-5', {
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    }) as number;
    expect(chat.stderr).toContain(
      `── done · 2 steps · 20 in / 10 out tokens · $${(cost * 2).toFixed(4)}`,
    );
    expect(chat.stderr).toMatch(
      /── done · 1 step · 10 in \/ 5 out tokens · \$0\.0001 · anthropic claude-sonnet-4-5/,
    );
    // The second turn went to the model chosen with /model, and carried the first.
    expect(server.requests[1]?.body.model).toBe('claude-haiku-4-5');
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain(
      'Hello! What shall I review?',
    );
    const refused = JSON.stringify(server.requests[2]?.body.messages.at(-1));
    expect(refused).toContain('The user refused: not now');
    expect(refused).toContain('print(\\"hi\\")');
    // The system prompt stayed byte for byte the same across turns.
    expect(server.requests[2]?.body.system).toEqual(server.requests[0]?.body.system);

    const id = /--resume ([0-9a-f-]{36})/.exec(chat.stderr)?.[1] as string;
    const log = readFileSync(join(home, '.skillhost', 'sessions', `${id}.jsonl`), 'utf8');
    expect(log).not.toContain(KEY);
    const again = await startModelServer({ anthropic: [{ text: 'Welcome back.' }] });
    const resumed = await runCli(['chat', ...base, '--resume', id, 'code-analyst'], {
      home,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: again.url },
      input: ['and now?'],
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('(resumed: ');
    expect(resumed.stdout).toContain('Welcome back.');
    expect(JSON.stringify(again.requests[0]?.body.messages)).toContain('app.py prints hi.');
  });

  it('/SKILL TASK activates the skill as the user, for that turn', async () => {
    const home = tempDir('skillhost-home-');
    const server = await startModelServer({ anthropic: [{ text: 'Summarised.' }] });
    const chat = await runCli(['chat', ...base, '--no-workspace', 'code-analyst'], {
      home,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
      input: ['/csv-summary', '/csv-summary Summarise the sample'],
    });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain('Give the task after the skill: /csv-summary TASK');
    const sent = JSON.stringify(server.requests[0]?.body.messages);
    expect(sent).toContain('csv-summary');
    expect(sent).toContain('Summarise the sample');
    expect(server.requests[0]?.body.tools.map((tool: { name: string }) => tool.name)).not.toContain(
      'workspace_read',
    );
    const audit = readFileSync(join(home, '.skillhost', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(
      /"event":"skill-activate"[^\n]*"triggered_by":"user"|"triggered_by":"user"[^\n]*"event":"skill-activate"/,
    );
  });
});

describe('skillhost tools --workspace', () => {
  it('lists the host tools over a workspace; write and edit only when writable', async () => {
    const workspace = tempDir('skillhost-tools-');
    const argv = ['tools', '--no-default-sources', '--skills', join(examples, 'skills'), '--json'];
    const names = (stdout: string) =>
      (JSON.parse(stdout) as Array<{ name: string }>).map((tool) => tool.name);
    const skills = await runCli(argv);
    expect(names(skills.stdout)).not.toContain('workspace_read');
    const readOnly = await runCli([...argv, '--workspace', workspace]);
    expect(names(readOnly.stdout)).toContain('workspace_bash');
    expect(names(readOnly.stdout)).not.toContain('workspace_write');
    const writable = await runCli([...argv, '--workspace', workspace, '--workspace-writable']);
    expect(names(writable.stdout)).toEqual(
      expect.arrayContaining(['workspace_write', 'workspace_edit']),
    );
    expect((await runCli(['tools', '--workspace-writable'])).code).toBe(2);
  });
});
