import { describe, expect, it } from 'vitest';
import { onTerminal } from '../helpers/built.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

// Answering "y" runs the script in bubblewrap: test/sandbox/terminal.test.ts.
describe('the confirmation prompt on a real terminal', () => {
  it('asks, and refuses on "n" without running anything', () => {
    const skills = tempDir();
    const home = tempDir();
    writeTree(skills, {
      'greet/SKILL.md': skillText('name: greet\ndescription: Greets. Use when asked.'),
      'greet/scripts/greet.sh': '#!/bin/sh\necho hi from the sandbox\n',
    });
    const argv = ['run', '--no-default-sources', '--skills', skills, 'greet', 'scripts/greet.sh'];
    const no = onTerminal(argv, 'n\n', home);
    expect(no.stdout).toContain('[y]es once / [n]o / [a]lways');
    expect(no.stdout).toContain('PERMISSION_DENIED');
    expect(no.stdout).not.toContain('hi from the sandbox');
    expect(no.status).toBe(3);
  });
});
