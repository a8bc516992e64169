import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryAuditSink } from '../../src/audit/trail.js';
import { loadTokenCounter } from '../../src/disclosure/tokens.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { nodeRuntimeDeps } from '../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import {
  type AgentBase,
  defaultAgentBases,
  listAgents,
  readAgent,
} from '../../src/runtime/agents.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';
import { yamlLibrary } from '../helpers/yaml.js';

const fs = createNodeFileSystem();

function setup(agentYaml: string, instructions = '# Role\n\nYou review code.\n', extraAgents = {}) {
  const root = tempDir('skillhost-agents-');
  writeTree(root, {
    'skills/alpha/SKILL.md': skillText(
      'name: alpha\ndescription: Alpha things. Use for alpha.',
      'ALPHA BODY\n',
    ),
    'skills/beta/SKILL.md': skillText(
      'name: beta\ndescription: Beta things. Use for beta.',
      'BETA BODY\n',
    ),
    'skills/gamma/SKILL.md': skillText('name: gamma\ndescription: Gamma things. Use for gamma.'),
    'untrusted/delta/SKILL.md': skillText('name: delta\ndescription: Delta things. Use for delta.'),
    'agents/demo/agent.yaml': agentYaml,
    'agents/demo/instructions.md': instructions,
    ...extraAgents,
  });
  const sink = new MemoryAuditSink();
  const runtime = createSkillRuntime({
    sources: [
      {
        id: 'skills',
        kind: 'explicit',
        root: join(root, 'skills'),
        trust: 'trusted',
        enabled: true,
      },
      {
        id: 'project',
        kind: 'project',
        root: join(root, 'untrusted'),
        trust: 'untrusted',
        enabled: false,
      },
    ],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'agents' },
    deps: nodeRuntimeDeps(),
  });
  const bases: AgentBase[] = [{ directory: join(root, 'agents'), kind: 'explicit' }];
  return { root, runtime, sink, bases };
}

describe('loading an agent', () => {
  it('preloads the listed skills into the system prompt and catalogs the rest', async () => {
    const { runtime, bases, sink } = setup(
      'name: demo\nmodels:\n  preferred: haiku\ncontext_budget: 4000\nskills:\n  - beta\n  - alpha\n',
    );
    const countTokens = await loadTokenCounter();
    const agent = runtime.loadAgent('demo', { bases, countTokens });
    expect(agent.systemPrompt).toBe('# Role\n\nYou review code.\n\n\nBETA BODY\n\nALPHA BODY');
    expect(agent.catalogSkills).toEqual(['gamma']);
    expect(agent.catalog).toContain('<name>gamma</name>');
    expect(agent.catalog).not.toContain('alpha');
    expect(agent.plan).toMatchObject({ provider: 'claude', model: 'claude-haiku-4-5' });
    expect(agent.tokens.skills).toEqual({
      beta: countTokens('BETA BODY'),
      alpha: countTokens('ALPHA BODY'),
    });
    expect(agent.tokens.total).toBe(countTokens(`${agent.systemPrompt}\n\n${agent.catalog}`));
    expect(agent.exactTokens).toBe(true);
    // Preloading is an activation by the user's agent: audited.
    const activations = sink.lines.filter((line) => line.includes('"event":"skill-activate"'));
    expect(activations).toHaveLength(2);
    expect(activations[0]).toContain('"triggered_by":"user"');
    // Loading again in the same session sends the bodies again.
    expect(runtime.loadAgent('demo', { bases }).systemPrompt).toContain('BETA BODY');
  });

  it('deferred_skills narrows the catalog', () => {
    const { runtime, bases } = setup('name: demo\nskills: [alpha]\ndeferred_skills: [gamma]\n');
    expect(runtime.loadAgent('demo', { bases }).catalogSkills).toEqual(['gamma']);
    const none = setup('name: demo\ndeferred_skills: []\n');
    const agent = none.runtime.loadAgent('demo', { bases: none.bases });
    expect(agent.catalog).toBe('');
    expect(agent.tokens.catalog).toBe(0);
  });

  it('fails when the budget is too small, naming the count of every part', () => {
    const { runtime, bases } = setup('name: demo\ncontext_budget: 10\nskills: [alpha]\n');
    let error: unknown;
    try {
      runtime.loadAgent('demo', { bases });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'AGENT_BUDGET_EXCEEDED' });
    const message = (error as Error).message;
    expect(message).toMatch(/instructions\.md \d+, skill alpha \d+, catalog \d+/);
    expect(message).toContain('context_budget is 10');
  });

  it('names a missing skill and where it looked; refuses an untrusted one', () => {
    const missing = setup('name: demo\nskills: [nowhere]\n');
    expect(() => missing.runtime.loadAgent('demo', { bases: missing.bases })).toThrow(
      expect.objectContaining({
        code: 'AGENT_SKILL_NOT_FOUND',
        message: expect.stringContaining(join(missing.root, 'skills')),
      }),
    );
    const untrusted = setup('name: demo\nskills: [delta]\n');
    expect(() => untrusted.runtime.loadAgent('demo', { bases: untrusted.bases })).toThrow(
      expect.objectContaining({ code: 'AGENT_SKILL_UNAVAILABLE' }),
    );
    const deferred = setup('name: demo\ndeferred_skills: [nowhere]\n');
    expect(() => deferred.runtime.loadAgent('demo', { bases: deferred.bases })).toThrow(
      expect.objectContaining({ code: 'AGENT_SKILL_NOT_FOUND' }),
    );
  });

  it('refuses hostile names, links out of the base, and missing or empty instructions', () => {
    const { bases, root } = setup('name: demo\n', '   \n');
    for (const name of ['../skills', 'demo/../demo', '/etc', 'a\\b', '..'])
      expect(() => readAgent(fs, bases, name), name).toThrow(
        expect.objectContaining({ code: 'AGENT_NAME_INVALID' }),
      );
    expect(() => readAgent(fs, bases, 'demo')).toThrow(
      expect.objectContaining({ code: 'AGENT_INSTRUCTIONS_MISSING' }),
    );
    writeTree(root, {
      'outside/evil/agent.yaml': 'name: evil\n',
      'outside/evil/instructions.md': 'x',
    });
    symlinkSync(join(root, 'outside/evil'), join(root, 'agents/evil'));
    expect(() => readAgent(fs, bases, 'evil')).toThrow(
      expect.objectContaining({ code: 'AGENT_OUTSIDE_BASE' }),
    );
    mkdirSync(join(root, 'agents/noinstructions'));
    writeTree(root, { 'agents/noinstructions/agent.yaml': 'name: noinstructions\n' });
    expect(() => readAgent(fs, bases, 'noinstructions')).toThrow(
      expect.objectContaining({ code: 'AGENT_INSTRUCTIONS_MISSING' }),
    );
    expect(() => readAgent(fs, bases, 'ghost')).toThrow(
      expect.objectContaining({ code: 'AGENT_NOT_FOUND' }),
    );
    // A link that stays inside the base is fine.
    symlinkSync(join(root, 'agents/demo'), join(root, 'agents/alias'));
    expect(() => readAgent(fs, bases, 'alias')).toThrow(
      expect.objectContaining({ code: 'AGENT_INSTRUCTIONS_MISSING' }),
    );
  });

  it('carries manifest diagnostics: errors refuse, warnings stay', () => {
    const broken = setup('name: demo\ncontext_budget: -5\n');
    expect(() => readAgent(fs, broken.bases, 'demo', { yaml: yamlLibrary })).toThrow(
      expect.objectContaining({
        code: 'AGENT_MANIFEST_INVALID',
        diagnostics: [expect.objectContaining({ code: 'AGENT_FIELD_INVALID', line: 2 })],
      }),
    );
    const warned = setup('name: demo\nflavour: mint\n');
    expect(readAgent(fs, warned.bases, 'demo').diagnostics[0]?.code).toBe('AGENT_FIELD_UNKNOWN');
  });

  it('lists agents by precedence, marking invalid and shadowed ones', () => {
    const { root } = setup('name: demo\n', 'x', {
      'agents/broken/agent.yaml': 'name: [\n',
      'agents/broken/instructions.md': 'x',
      'more/demo/agent.yaml': 'name: demo\ndescription: second\n',
      'more/demo/instructions.md': 'x',
      'agents/not-an-agent/readme.md': 'x',
    });
    const bases = defaultAgentBases({ directories: [join(root, 'agents'), join(root, 'more')] });
    const listed = listAgents(fs, bases).map((agent) => [agent.name, agent.valid, agent.shadowed]);
    expect(listed).toEqual([
      ['broken', false, false],
      ['demo', true, false],
      ['demo', true, true],
    ]);
  });

  it('refuses an unknown provider or model', () => {
    const { runtime, bases } = setup('name: demo\nmodels:\n  provider: skynet\n');
    expect(() => runtime.loadAgent('demo', { bases })).toThrow(
      expect.objectContaining({ code: 'MODEL_PROVIDER_UNKNOWN' }),
    );
    const model = setup('name: demo\n');
    expect(() =>
      model.runtime.loadAgent('demo', { bases: model.bases, model: 'gpt-9000' }),
    ).toThrow(expect.objectContaining({ code: 'MODEL_UNKNOWN' }));
  });
});
