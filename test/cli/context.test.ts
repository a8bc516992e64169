import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillBody } from '../helpers/context.js';
import { startModelServer } from '../helpers/model-servers.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/** The context lifecycle through the command line: agent run, --resume, chat's /compact. */

const KEY = 'sk-ant-api03-CONTEXT-KEY-never-printed-0123456789';

/** An agent and three skills of about `tokens` tokens each, made at test time. */
function fixture(tokens = 1_200) {
  const root = tempDir('skillhost-context-cli-');
  const tree: Record<string, string> = {
    'agents/ctx/agent.yaml':
      'name: ctx\ndescription: A test agent.\nmodels:\n  provider: anthropic\n',
    'agents/ctx/instructions.md': '# Test agent\n\nUse the skills the task needs.\n',
  };
  for (const name of ['alpha', 'beta', 'gamma'])
    tree[`skills/${name}/SKILL.md`] = skillText(
      `name: ${name}\ndescription: Does ${name} work. Use when the task needs ${name}.`,
      skillBody(name, tokens),
    );
  writeTree(root, tree);
  return {
    home: tempDir('skillhost-home-'),
    argv: [
      '--no-default-sources',
      '--skills',
      join(root, 'skills'),
      '--agents',
      join(root, 'agents'),
      '--no-workspace',
      '--context-window',
      '9000',
    ],
  };
}

const activate = (id: string, name: string) => ({
  toolCalls: [{ id, name: 'skillhost_activate', input: { name } }],
});

function sessionLines(home: string): Array<Record<string, unknown>> {
  const folder = join(home, '.skillhost', 'sessions');
  const [file] = readdirSync(folder);
  return readFileSync(join(folder, file as string), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('the context lifecycle on the command line', () => {
  it('compacts an agent run at the threshold, logs the ledger, and resumes with the same skills state', async () => {
    const { home, argv } = fixture();
    const server = await startModelServer({
      anthropic: [
        activate('toolu_1', 'alpha'),
        activate('toolu_2', 'beta'),
        activate('toolu_3', 'gamma'),
        { text: 'SUMMARY: alpha, beta and gamma were activated for the task.' },
        { text: 'All done.' },
        { text: 'Resumed and done.' },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const run = await runCli(['agent', 'run', ...argv, '--json', 'ctx', 'Use all three.'], {
      home,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const steps = events.filter((event) => event.type === 'step');
    expect(steps[0]).toMatchObject({ contextWindow: 9_000 });
    expect(steps[0].compactThreshold).toBe(Math.floor(0.8 * (9_000 - 2_250)));
    expect(steps.every((event) => typeof event.contextTokens === 'number')).toBe(true);
    const compaction = events.find((event) => event.type === 'compaction');
    expect(compaction).toMatchObject({ v: 1, trigger: 'threshold', summarized: true });
    expect(compaction.preTokens).toBeGreaterThan(compaction.postTokens);
    expect([...compaction.kept, ...compaction.truncated, ...compaction.demoted].sort()).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
    const states = events.filter((event) => event.type === 'skill-state');
    expect(
      states.filter((event) => event.reason === 'activate').map((event) => event.skill),
    ).toEqual(['alpha', 'beta', 'gamma']);
    expect(states.find((event) => event.reason === 'compaction')).toEqual(
      expect.objectContaining({
        source: expect.any(String),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        state: expect.stringMatching(/^(full|truncated|demoted)$/),
        tokens: expect.any(Number),
      }),
    );
    // The summariser got its own instructions, no tools, and no skill text.
    const summary = server.requests[3]?.body;
    expect(JSON.stringify(summary.system)).toContain('You summarise the earlier part');
    expect(summary.tools).toBeUndefined();
    expect(JSON.stringify(summary.messages)).not.toContain('BODY-MARKER');
    // The request after it: the same system prompt, then marker, summary, skills state, tail.
    const after = server.requests[4]?.body;
    expect(after.system).toEqual(server.requests[0]?.body.system);
    const first = after.messages[0];
    expect(first.content[0].text).toMatch(
      /^\[skillhost: the conversation was compacted \(trigger: threshold/,
    );
    expect(first.content[1].text).toContain('SUMMARY: alpha, beta and gamma');
    expect(first.content[2].text).toMatch(/^Skills state \(kept by skillhost/);
    const log = sessionLines(home);
    const ledgers = log.filter((line) => line.type === 'ledger');
    expect(ledgers.length).toBeGreaterThanOrEqual(4);
    const ledger = ledgers.at(-1) as { skills: Array<{ name: string; state: string }> };
    expect(ledger.skills.map((skill) => skill.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(log.some((line) => line.type === 'compaction')).toBe(true);
    const audit = readFileSync(join(home, '.skillhost', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"context-compact"');

    // A restart: --resume sends the compacted context, byte for byte, and the same ledger.
    const id = events[0].session as string;
    const again = await runCli(['agent', 'run', ...argv, '--resume', id, 'ctx', 'And now?'], {
      home,
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    const resumed = server.requests[5]?.body;
    expect(resumed.messages[0]).toEqual(first);
    expect(resumed.system).toEqual(server.requests[0]?.body.system);
    const show = await runCli(['sessions', 'show', id, '--json'], { home, env });
    const state = JSON.parse(show.stdout);
    expect(state.compactions).toBe(1);
    expect(state.ledger.skills).toEqual(ledger.skills);
    const text = await runCli(['sessions', 'show', id], { home, env });
    expect(text.stdout).toMatch(
      /── compaction\ncontext compacted \(threshold\): about \d+ → \d+ tokens/,
    );
    for (const output of [run.stdout, run.stderr, again.stderr, JSON.stringify(log)])
      expect(output).not.toContain(KEY);
  });

  it('compacts a chat on /compact, and lists it in /help', async () => {
    const { home, argv } = fixture(700);
    const server = await startModelServer({
      anthropic: [
        activate('toolu_1', 'alpha'),
        { text: 'Alpha is active.' },
        { text: 'Second answer.' },
        { text: 'SUMMARY: alpha was activated.' },
        { text: 'After the compaction.' },
      ],
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const chat = await runCli(['chat', ...argv, 'ctx'], {
      home,
      env,
      input: ['Use alpha', 'Go on', '/help', '/compact', 'Continue', '/exit'],
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr).toMatch(/\/compact {2}compact the conversation now/);
    expect(chat.stderr).toMatch(/compacted: about [\d,]+ → [\d,]+ tokens, summary made/);
    expect(chat.stderr).toContain('; truncated (none); stubs (none)');
    expect(chat.stderr).toContain('skills in full alpha');
    expect(chat.stdout).toContain('After the compaction.');
    const last = server.requests[4]?.body;
    expect(last.messages[0].content[0].text).toMatch(/trigger: manual/);
    expect(JSON.stringify(last.messages[0])).toContain('BODY-MARKER-alpha');
  });
});
