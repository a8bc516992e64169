import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function skills(count: number): string {
  const root = tempDir();
  for (let index = 0; index < count; index += 1) {
    const name = `tool-${String(index).padStart(3, '0')}`;
    writeTree(root, {
      [`${name}/SKILL.md`]: skillText(
        `name: ${name}\ndescription: Handles task ${index} with care, checking every input and reporting what changed. Use when the user asks for task ${index}.`,
      ),
    });
  }
  return root;
}

interface Explained {
  tokens: number;
  exact: boolean;
  fullTokens: number;
  decisions: Array<{ name: string; level: string; rank: number; reason: string }>;
}

describe('skillhost catalog --budget', () => {
  it('counts nothing when the estimate shows that everything fits', async () => {
    const root = skills(20);
    const run = await runCli([
      'catalog',
      '--json',
      '--explain',
      '--budget',
      '8000',
      '--no-default-sources',
      '--skills',
      root,
    ]);
    const explained = JSON.parse(run.stderr) as Explained;
    expect(explained.exact).toBe(false);
    expect(explained.decisions.every((decision) => decision.level === 'full')).toBe(true);
  });

  it('keeps the skills the audit log shows in use, and the pinned ones, visible first', async () => {
    const home = tempDir('skillhost-home-');
    const root = skills(60);
    const sources = ['--no-default-sources', '--skills', root];
    for (const name of ['tool-059', 'tool-059', 'tool-058'])
      expect((await runCli(['activate', name, ...sources], { home })).code).toBe(0);
    writeFileSync(
      join(home, '.skillhost', 'config.json'),
      JSON.stringify({ trustedProjects: [], pinnedSkills: ['tool-050'] }),
    );
    const explain = async (...extra: string[]) =>
      JSON.parse(
        (
          await runCli(
            ['catalog', '--format', 'json', '--explain', '--budget', '600', ...extra, ...sources],
            { home },
          )
        ).stderr,
      ) as Explained;
    const explained = await explain('--pin', 'tool-040');
    expect(explained.exact).toBe(true);
    expect(explained.tokens).toBeLessThanOrEqual(600);
    expect(explained.tokens).toBeGreaterThanOrEqual(588);
    const rank = Object.fromEntries(explained.decisions.map((item) => [item.name, item.rank]));
    expect([rank['tool-040'], rank['tool-050'], rank['tool-059'], rank['tool-058']]).toEqual([
      1, 2, 3, 4,
    ]);
    expect(rank['tool-000']).toBe(5);
    const level = Object.fromEntries(explained.decisions.map((item) => [item.name, item.level]));
    expect(level['tool-059']).toBe('full');
    expect(level['tool-057']).not.toBe('full');
    // The audit log is the one given: another log knows no use.
    const other = await explain('--audit-log', join(home, 'none.jsonl'));
    expect(other.decisions.find((item) => item.name === 'tool-059')?.rank).toBeGreaterThan(4);
  });
});

describe('skillhost catalog without a budget', () => {
  it('writes every skill in full, as the catalog with --explain makes it, in every format', async () => {
    const root = skills(900);
    const sources = ['--no-default-sources', '--skills', root];
    for (const format of ['xml', 'markdown', 'json']) {
      const streamed = await runCli(['catalog', '--format', format, ...sources]);
      const whole = await runCli(['catalog', '--format', format, '--explain', ...sources]);
      expect(streamed.code).toBe(0);
      expect(streamed.stdout.length).toBeGreaterThan(100_000);
      expect(streamed.stdout).toBe(whole.stdout);
      expect(streamed.stdout.endsWith(format === 'json' ? ']}\n' : '\n')).toBe(true);
    }
    const empty = await runCli(['catalog', '--no-default-sources', '--skills', tempDir()]);
    expect(empty).toMatchObject({ code: 0, stdout: '' });
    expect(empty.stderr).toContain('No usable skills');
  });
});
