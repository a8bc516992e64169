import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'dist', 'cli', 'bin.js');

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
  });
});
