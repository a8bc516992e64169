import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const examples = resolve('examples');
const base = [
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
];

describe('skillhost agent', () => {
  it('lists, shows and prints the example agent', async () => {
    const list = await runCli(['agent', 'list', ...base, '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).agents).toEqual([
      expect.objectContaining({ name: 'code-analyst', valid: true, base: 'explicit' }),
    ]);
    const show = await runCli(['agent', 'show', ...base, 'code-analyst']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('model:     claude-sonnet-4-5 (alias sonnet) (manifest)');
    expect(show.stdout).toContain('code-analysis [active]');
    const prompt = await runCli(['agent', 'prompt', ...base, '--json', 'code-analyst']);
    expect(prompt.code).toBe(0);
    const document = JSON.parse(prompt.stdout);
    expect(Object.keys(document)).toEqual([
      'name',
      'provider',
      'model',
      'fallback',
      'systemPrompt',
      'catalog',
      'tokens',
      'contextBudget',
    ]);
    expect(document).toMatchObject({
      name: 'code-analyst',
      provider: 'claude',
      model: 'claude-sonnet-4-5',
      fallback: 'claude-haiku-4-5',
      contextBudget: 8192,
    });
    expect(Object.keys(document.tokens)).toEqual(['instructions', 'skills', 'catalog', 'total']);
    expect(Object.keys(document.tokens.skills)).toEqual(['code-analysis']);
    expect(document.systemPrompt).toContain('# Code Analysis');
    expect(document.catalog).toContain('<name>csv-summary</name>');
    const overridden = await runCli([
      'agent',
      'prompt',
      ...base,
      '--json',
      '--provider',
      'openai',
      '--model',
      'haiku',
      'code-analyst',
    ]);
    expect(JSON.parse(overridden.stdout)).toMatchObject({
      provider: 'openai',
      model: 'gpt-5-mini',
    });
    const text = await runCli(['agent', 'prompt', ...base, 'code-analyst']);
    expect(text.stdout).toMatch(/total {2}\d+ of 8192 \(context_budget\)/);
  });

  it('fails with coded errors and diagnostics naming the file', async () => {
    const agents = tempDir();
    writeTree(agents, {
      'bad/agent.yaml': 'name: bad\ncontext_budget: many\n',
      'bad/instructions.md': 'x',
      'tiny/agent.yaml': 'name: tiny\ncontext_budget: 5\nskills: [code-analysis]\n',
      'tiny/instructions.md': 'Be brief.',
    });
    const options = [
      '--no-default-sources',
      '--skills',
      join(examples, 'skills'),
      '--agents',
      agents,
    ];
    const bad = await runCli(['agent', 'prompt', ...options, 'bad']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `${join(agents, 'bad', 'agent.yaml')}:2:17: error AGENT_FIELD_INVALID`,
    );
    expect(bad.stderr).toContain('error AGENT_MANIFEST_INVALID');
    const tiny = await runCli(['agent', 'prompt', ...options, 'tiny']);
    expect(tiny.code).toBe(1);
    expect(tiny.stderr).toMatch(
      /AGENT_BUDGET_EXCEEDED: .*instructions\.md \d+, skill code-analysis \d+, catalog \d+/,
    );
    const traversal = await runCli(['agent', 'show', ...options, '../../etc']);
    expect(traversal.code).toBe(1);
    expect(traversal.stderr).toContain('AGENT_NAME_INVALID');
    const provider = await runCli([
      'agent',
      'prompt',
      ...base,
      '--provider',
      'skynet',
      'code-analyst',
    ]);
    expect(provider.code).toBe(1);
    expect(provider.stderr).toContain('MODEL_PROVIDER_UNKNOWN');
    expect((await runCli(['agent', 'frobnicate', ...base])).code).toBe(2);
  });
});

describe('skillhost tools', () => {
  it('prints the definitions a model would receive, and none without skills', async () => {
    const json = await runCli([
      'tools',
      '--json',
      '--no-default-sources',
      '--skills',
      join(examples, 'skills'),
    ]);
    expect(json.code).toBe(0);
    const tools = JSON.parse(json.stdout);
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
    ]);
    expect(tools[0].inputSchema.properties.name.enum).toEqual([
      'code-analysis',
      'csv-summary',
      'figures-report',
      'release-notes',
    ]);
    const limited = await runCli([
      'tools',
      '--no-default-sources',
      '--skills',
      join(examples, 'skills'),
      '--tools',
      'skillhost_activate',
    ]);
    expect(limited.stdout).toMatch(
      /^skillhost_activate\(name: string one of 4 names, hash\?: string\)\n/,
    );
    const empty = await runCli(['tools', '--json', '--no-default-sources', '--skills', tempDir()]);
    expect(JSON.parse(empty.stdout)).toEqual([]);
  });
});
