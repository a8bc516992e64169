import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function setup() {
  const skills = tempDir('skillhost-skills-');
  const home = tempDir('skillhost-home-');
  writeTree(skills, {
    'greet/SKILL.md': skillText(
      'name: greet\ndescription: Greets people. Use when asked to greet.',
    ),
    'greet/scripts/greet.sh':
      '#!/bin/sh\necho "hello $1"\necho "to stderr" >&2\nexit $(($2 + 0))\n',
    'greet/scripts/slow.sh': '#!/bin/sh\nsleep 30\n',
  });
  return { home, base: ['--no-default-sources', '--skills', skills] };
}

describe('skillhost run with the real sandbox', () => {
  it('runs the script in bubblewrap: its output, its exit code, a one-line result', async () => {
    const { home, base } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', 'greet', 'scripts/greet.sh', '--', 'you', '7'],
      { home, runner: 'bubblewrap' },
    );
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('hello you\n');
    expect(result.stderr).toContain('to stderr');
    expect(result.stderr).toMatch(/exit 7 · .* · output complete · sandbox bubblewrap/);
  });

  it('kills a script at the timeout and exits 124', async () => {
    const { home, base } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', '--timeout', '0.5', 'greet', 'scripts/slow.sh'],
      { home, runner: 'bubblewrap' },
    );
    expect(result.code).toBe(124);
    expect(result.stderr).toContain('timed out');
    expect(result.stderr).toContain('sandbox bubblewrap');
  });
});
