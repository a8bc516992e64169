import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, root, runMainJob } from './helpers/built.js';

function run(...argv: string[]) {
  return spawnSync(process.execPath, [bin, ...argv], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

describe('the built package', () => {
  it('runs the bin: --version, and validate and to-prompt on the examples', () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    expect(run('--version').stdout).toBe(`skillhost ${version}\n`);
    const validate = run('validate', 'examples/skills');
    expect(validate.status).toBe(0);
    expect(validate.stdout).toMatch(/Checked \d+ skills: all valid( \(\d+ warnings?\))?\n$/);

    const prompt = run('to-prompt', 'examples/skills');
    expect(prompt.status).toBe(0);
    expect(prompt.stdout).toContain('<name>\ncode-analysis\n</name>');
  });

  it('exports the documented entries', async () => {
    const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(packageJson.exports)).toEqual(expect.arrayContaining(['.', './node']));
    const core = await import(join(root, 'dist', 'index.js'));
    const node = await import(join(root, 'dist', 'node', 'index.js'));
    expect(typeof core.parseSkill).toBe('function');
    expect(typeof core.validateSkill).toBe('function');
    expect(typeof core.loadSkill).toBe('function');
    expect(typeof node.validatePaths).toBe('function');
    expect(typeof node.readSkill).toBe('function');
    // Each adapter entry resolves through the package's exports, by the package's own name.
    const expected: Record<string, string[]> = {
      'skillhost/ai-sdk': ['skillTools'],
      'skillhost/anthropic': ['anthropicTools', 'runAnthropicToolUses'],
      'skillhost/openai': ['openaiTools', 'runOpenAIToolCalls', 'openaiResponsesTools'],
      'skillhost/mcp': ['createMcpServer', 'serveStdio', 'serveHttp'],
      'skillhost/testing': [
        'createScriptedRunner',
        'createRecordingAuditSink',
        'createFakeClock',
        'skillFixture',
        'createMemoryFileSystem',
      ],
    };
    for (const [entry, names] of Object.entries(expected)) {
      expect(Object.keys(packageJson.exports)).toContain(entry.replace('skillhost', '.'));
      const module = await import(entry);
      for (const name of names) expect(typeof module[name], `${entry} ${name}`).toBe('function');
    }
  });
});

describe('the main job', () => {
  // The script run of step 5 needs bubblewrap: test/sandbox/main-job.test.ts checks it.
  it('runs end to end on the examples: agent, route, activate, read, prompt, audit', () => {
    const result = runMainJob();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('model claude claude-sonnet-4-5 (fallback claude-haiku-4-5)');
    expect(out).toMatch(/selected: csv-summary, code-analysis/);
    expect(out).toContain('Lisbon,Portugal,545000,100');
    expect(out).toMatch(/total \d+ of 8192 \(context_budget\)/);
    expect(out).toMatch(/script-run · csv-summary/);
    expect(out).toMatch(/chain: intact \(\d+ records\)/);
  });
});
