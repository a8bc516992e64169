import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function setup() {
  const root = tempDir('skillhost-untrusted-');
  const home = tempDir('skillhost-home-');
  writeTree(root, {
    'market/evil/SKILL.md': skillText(
      'name: evil\ndescription: "Helps with reports \\e[2J\\u202e. Use for reports."',
      'EVIL BODY\n',
    ),
    'mine/good/SKILL.md': skillText('name: good\ndescription: Good things.', 'GOOD BODY\n'),
  });
  const base = [
    '--no-default-sources',
    '--no-cache',
    '--skills',
    join(root, 'mine'),
    '--untrusted-skills',
    join(root, 'market'),
  ];
  return { root, home, base, log: join(home, '.skillhost', 'audit.jsonl') };
}

describe('skillhost activate of an untrusted skill', () => {
  it('refuses a model-triggered activation with exit 3 when not interactive', async () => {
    const { home, base, log } = setup();
    for (const triggeredBy of ['model', 'router']) {
      const result = await runCli(['activate', ...base, 'evil', '--triggered-by', triggeredBy], {
        home,
      });
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('PERMISSION_REQUIRED');
    }
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      records.filter((record) => record.event === 'permission-decide').map((r) => r.triggered_by),
    ).toEqual(['model', 'router']);
    // The user's own activation and a trusted skill are not asked about.
    expect((await runCli(['activate', ...base, 'evil'], { home })).stdout).toContain('EVIL BODY');
    const good = await runCli(['activate', ...base, 'good', '--triggered-by', 'model'], { home });
    expect(good.code).toBe(0);
  });

  it('asks at the terminal, showing what is asked; no, yes and always', async () => {
    const { home, base } = setup();
    const argv = ['activate', ...base, 'evil', '--triggered-by', 'model'];
    const no = await runCli(argv, { home, input: ['n'] });
    expect(no.code).toBe(3);
    expect(no.stderr).toContain('PERMISSION_DENIED');
    expect(no.stderr).toMatch(/Activate evil@external, UNTRUSTED \(source external\), sha256 /);
    expect(no.stderr).toContain('Description: Helps with reports');
    expect(no.stderr).toContain('[y]es once / [n]o / [a]lways for this exact content');
    const yes = await runCli(argv, { home, input: ['y'] });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain('EVIL BODY');
    const always = await runCli(argv, { home, input: ['a'] });
    expect(always.code).toBe(0);
    const config = JSON.parse(readFileSync(join(home, '.skillhost', 'config.json'), 'utf8'));
    expect(config.approvals).toEqual([
      expect.objectContaining({ kind: 'activation', skill: 'evil@external', script: '' }),
    ]);
    // Remembered: no terminal needed any more for this exact content.
    const later = await runCli(argv, { home });
    expect(later.code).toBe(0);
    expect(later.stdout).toContain('EVIL BODY');
  });

  it('route ranks untrusted skills after trusted matches and marks them (text and JSON)', async () => {
    const { home, base } = setup();
    const text = await runCli(['route', ...base, 'reports good things', '--threshold', '0'], {
      home,
    });
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const good = lines.findIndex((line) => /\bgood\b/.test(line));
    const evil = lines.findIndex((line) => /\bevil \[untrusted\]/.test(line));
    expect(good).toBeGreaterThanOrEqual(0);
    expect(evil).toBeGreaterThan(good);
    const json = await runCli(['route', ...base, 'reports good things', '--json'], { home });
    const ranked = JSON.parse(json.stdout).ranked as Array<{ name: string; trusted: boolean }>;
    expect(ranked.map((candidate) => [candidate.name, candidate.trusted])).toEqual([
      ['good', true],
      ['evil', false],
    ]);
  });
});
