import { describe, expect, it } from 'vitest';
import { onTerminal } from '../helpers/built.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

describe('the confirmation prompt on a real terminal, then the sandbox', () => {
  it('asks, and on "y" runs the script in bubblewrap', () => {
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
    expect(yes.stdout).toContain('sandbox bubblewrap');
    expect(yes.status).toBe(0);
  });
});
