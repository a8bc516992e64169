import { describe, expect, it } from 'vitest';
import { isValidAgentName } from '../../src/agents/manifest.js';
import { resolveModelPlan } from '../../src/agents/models.js';
import { joinSystemPrompt } from '../../src/agents/prompt.js';
// Through the public entry, which gives the parser the YAML library.
import { parseAgentManifest } from '../../src/index.js';

const FILE = 'agents/code-analyst/agent.yaml';

describe('agent.yaml', () => {
  it('reads tools as a list of names or devices, and refuses anything else', () => {
    const listed = parseAgentManifest('name: a\ntools:\n  - /dev/fs/read\n  - Bash\n', FILE, 'a');
    expect(listed.manifest?.tools).toEqual(['/dev/fs/read', 'Bash']);
    expect(parseAgentManifest('name: a\n', FILE, 'a').manifest?.tools).toBeUndefined();
    const text = parseAgentManifest('name: a\ntools: /dev/fs\n', FILE, 'a');
    expect(text.manifest).toBeUndefined();
    expect(text.diagnostics[0]).toMatchObject({ code: 'AGENT_FIELD_INVALID', line: 2 });
    expect(text.diagnostics[0]?.message).toContain('tool names or devices');
  });

  it("reads the agent format's fields and deferred_skills", () => {
    const { manifest, diagnostics } = parseAgentManifest(
      [
        'name: code-analyst',
        'description: "Analyses code"',
        'models:',
        '  provider: claude',
        '  preferred: sonnet',
        '  fallback: haiku',
        'context_budget: 8192',
        'skills:',
        '  - code-analysis',
        '  - release-notes',
        'deferred_skills: [csv-summary]',
        '',
      ].join('\n'),
      FILE,
      'code-analyst',
    );
    expect(diagnostics).toEqual([]);
    expect(manifest).toEqual({
      name: 'code-analyst',
      description: 'Analyses code',
      models: { provider: 'claude', preferred: 'sonnet', fallback: 'haiku' },
      contextBudget: 8192,
      skills: ['code-analysis', 'release-notes'],
      deferredSkills: ['csv-summary'],
    });
  });

  it('reports every problem with file, line and column', () => {
    const { manifest, diagnostics } = parseAgentManifest(
      [
        'name: other-name',
        'context_budget: lots',
        'skills: code-analysis',
        'models:',
        '  provider: claude',
        '  temperature: hot',
        'colour: blue',
        '',
      ].join('\n'),
      FILE,
      'code-analyst',
    );
    expect(manifest).toBeUndefined();
    expect(diagnostics.map((item) => [item.code, item.severity, item.line, item.column])).toEqual(
      expect.arrayContaining([
        ['AGENT_NAME_MISMATCH', 'warning', 1, 7],
        ['AGENT_FIELD_INVALID', 'error', 2, 17],
        ['AGENT_FIELD_INVALID', 'error', 3, 9],
        ['AGENT_FIELD_UNKNOWN', 'warning', 6, 3],
        ['AGENT_FIELD_UNKNOWN', 'warning', 7, 1],
      ]),
    );
    expect(diagnostics.every((item) => item.file === FILE)).toBe(true);
  });

  it('needs a name, a mapping, and valid YAML', () => {
    expect(parseAgentManifest('description: x\n', FILE).diagnostics[0]?.code).toBe(
      'AGENT_FIELD_MISSING',
    );
    expect(parseAgentManifest('name: "  "\n', FILE).diagnostics[0]?.code).toBe(
      'AGENT_FIELD_MISSING',
    );
    expect(parseAgentManifest('- a\n- b\n', FILE).manifest).toBeUndefined();
    expect(parseAgentManifest('name: [a\n', FILE).manifest).toBeUndefined();
    expect(parseAgentManifest('name: &a x\nskills: *a\n', FILE).manifest).toBeUndefined();
    // Only warnings: still a manifest.
    const warned = parseAgentManifest('name: a\nextra: 1\n', FILE, 'a');
    expect(warned.manifest?.name).toBe('a');
    expect(warned.diagnostics.map((item) => item.code)).toEqual(['AGENT_FIELD_UNKNOWN']);
  });

  it('never takes a path for a name', () => {
    for (const bad of [
      '',
      '.',
      '..',
      '../x',
      'a/b',
      'a\\b',
      '.hidden',
      'a..b',
      'x\u0000',
      'a'.repeat(129),
    ])
      expect(isValidAgentName(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['code-analyst', 'a', 'A_1.v2']) expect(isValidAgentName(good)).toBe(true);
  });
});

describe('model resolution', () => {
  it('follows --model > preferred > default and --provider > manifest > claude', () => {
    const models = { provider: 'claude', preferred: 'sonnet', fallback: 'haiku' };
    expect(resolveModelPlan(models)).toMatchObject({
      provider: 'claude',
      providerFrom: 'manifest',
      model: 'claude-sonnet-4-5',
      modelFrom: 'manifest',
      alias: 'sonnet',
      fallback: 'claude-haiku-4-5',
    });
    expect(resolveModelPlan(models, { model: 'opus' })).toMatchObject({
      model: 'claude-opus-4-5',
      modelFrom: 'command line',
    });
    expect(resolveModelPlan(models, { provider: 'openai' })).toMatchObject({
      provider: 'openai',
      providerFrom: 'command line',
      model: 'gpt-5',
      fallback: 'gpt-5-mini',
    });
    // Claude Code's own default applies when the agent names no model.
    expect(resolveModelPlan(undefined)).toMatchObject({
      provider: 'claude',
      providerFrom: 'default',
      model: '',
      modelFrom: 'default',
    });
    expect(resolveModelPlan({ preferred: 'claude-3-7-sonnet-latest' }).model).toBe(
      'claude-3-7-sonnet-latest',
    );
    // anthropic is the Messages API, no longer another name of the claude command line.
    expect(resolveModelPlan({ provider: 'Anthropic' }).provider).toBe('anthropic');
    expect(resolveModelPlan({ provider: 'anthropic', preferred: 'haiku' }).model).toBe(
      'claude-haiku-4-5',
    );
    expect(
      resolveModelPlan(
        { provider: 'claude', preferred: 'sonnet', fallback: 'haiku' },
        { provider: 'openai-compatible', model: 'qwen2.5-coder:7b' },
      ),
    ).toMatchObject({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b' });
  });

  it('plans for Gemini CLI and any ACP agent, with their own defaults', () => {
    expect(resolveModelPlan({ provider: 'gemini' })).toMatchObject({
      provider: 'gemini',
      model: '',
    });
    expect(resolveModelPlan({ provider: 'gemini-cli', preferred: 'opus' }).model).toBe(
      'gemini-2.5-pro',
    );
    expect(
      resolveModelPlan({ provider: 'gemini', preferred: 'gemini-3-flash-preview' }).model,
    ).toBe('gemini-3-flash-preview');
    expect(resolveModelPlan({ provider: 'acp' })).toMatchObject({ provider: 'acp', model: '' });
    expect(resolveModelPlan({ provider: 'acp', preferred: 'org/model-7b' }).model).toBe(
      'org/model-7b',
    );
    // Tiers mean nothing to an unknown agent: refused as a choice, left out as a fallback.
    expect(() => resolveModelPlan({ provider: 'acp', preferred: 'sonnet' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
    expect(resolveModelPlan({ provider: 'acp', fallback: 'haiku' }).fallback).toBeUndefined();
    expect(() => resolveModelPlan({ provider: 'gemini', preferred: 'gpt-5' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
  });

  it('refuses unknown providers and models with codes', () => {
    expect(() => resolveModelPlan({ provider: 'skynet' })).toThrow(
      expect.objectContaining({ code: 'MODEL_PROVIDER_UNKNOWN' }),
    );
    expect(() => resolveModelPlan({ preferred: 'gpt-5' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
    expect(() => resolveModelPlan(undefined, { provider: 'openai', model: 'claude-x' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
    // A local server has no tiers and no default model.
    expect(() =>
      resolveModelPlan({ preferred: 'sonnet' }, { provider: 'openai-compatible' }),
    ).toThrow(expect.objectContaining({ code: 'MODEL_UNKNOWN' }));
    expect(() => resolveModelPlan(undefined, { provider: 'openai-compatible' })).toThrow(
      expect.objectContaining({ code: 'MODEL_UNKNOWN' }),
    );
  });
});

describe('the system prompt', () => {
  it('is instructions + "\\n\\n" + each body, exactly', () => {
    expect(joinSystemPrompt('I\n', ['A\n', 'B'])).toBe('I\n\n\nA\n\n\nB');
    expect(joinSystemPrompt('I', [])).toBe('I');
  });
});
