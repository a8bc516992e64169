import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'cli', 'bin.js');

/** Runs the built bin on a real pseudo-terminal (util-linux `script`), typing `typed`. */
function onTerminal(argv: string[], typed: string, home: string) {
  const command = [process.execPath, bin, ...argv].map((word) => `'${word}'`).join(' ');
  return spawnSync('script', ['-qec', command, '/dev/null'], {
    input: typed,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: join(home, '.skillhost') },
    timeout: 30_000,
  });
}

describe('the confirmation prompt on a real terminal', () => {
  it('asks, and runs on "y" or refuses on "n"', () => {
    const skills = tempDir();
    const home = tempDir();
    writeTree(skills, {
      'greet/SKILL.md': skillText('name: greet\ndescription: Greets. Use when asked.'),
      'greet/scripts/greet.sh': '#!/bin/sh\necho hi from the sandbox\n',
    });
    const argv = ['run', '--no-default-sources', '--skills', skills, 'greet', 'scripts/greet.sh'];
    const yes = onTerminal(argv, 'y\n', home);
    expect(yes.stdout).toContain('[y]es once / [n]o / [a]lways');
    expect(yes.stdout).toContain('hi from the sandbox');
    expect(yes.status).toBe(0);
    const no = onTerminal(argv, 'n\n', home);
    expect(no.stdout).toContain('PERMISSION_DENIED');
    expect(no.stdout).not.toContain('hi from the sandbox');
    expect(no.status).toBe(3);
  });
});
