import { describe, expect, it } from 'vitest';
import { compareSkillVersions } from '../../src/index.js';
import { diffLines } from '../../src/internal.js';

describe('what an update changes', () => {
  it('diffs SKILL.md as a unified diff with context', () => {
    const before = [
      '---',
      'name: a',
      'description: old',
      '---',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      '',
    ].join('\n');
    const after = before.replace('description: old', 'description: new').replace('seven', 'SEVEN');
    expect(diffLines(before, after)).toEqual([
      '@@ -1,6 +1,6 @@',
      ' ---',
      ' name: a',
      '-description: old',
      '+description: new',
      ' ---',
      ' one',
      ' two',
      '@@ -8,4 +8,4 @@',
      ' four',
      ' five',
      ' six',
      '-seven',
      '+SEVEN',
    ]);
    expect(diffLines('a\n', 'a\n')).toEqual([]);
    expect(diffLines('', 'new\n')).toEqual(['@@ -0,0 +1,1 @@', '+new']);
  });

  it('splits far-apart changes into hunks', () => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index}`);
    const after = [...lines];
    after[2] = 'changed 2';
    after[30] = 'changed 30';
    const diff = diffLines(`${lines.join('\n')}\n`, `${after.join('\n')}\n`);
    expect(diff.filter((line) => line.startsWith('@@'))).toEqual([
      '@@ -1,6 +1,6 @@',
      '@@ -28,7 +28,7 @@',
    ]);
  });

  it('names scripts added, changed and removed, and allowed-tools entries added and removed', () => {
    const changes = compareSkillVersions(
      {
        files: {
          'SKILL.md': '1',
          'scripts/a.sh': '1',
          'scripts/b.sh': '1',
          'references/r.md': '1',
        },
        skillText: 'x',
        allowedTools: 'Read Bash(git status:*)',
      },
      {
        files: {
          'SKILL.md': '2',
          'scripts/a.sh': '2',
          'scripts/c.sh': '1',
          'references/r.md': '1',
        },
        skillText: 'y',
        allowedTools: 'Read Bash(curl *:*) Write',
      },
    );
    expect(changes.scripts).toEqual({
      added: ['scripts/c.sh'],
      changed: ['scripts/a.sh'],
      removed: ['scripts/b.sh'],
    });
    expect(changes.files.changed).toEqual(['SKILL.md', 'scripts/a.sh']);
    expect(changes.allowedTools.added).toEqual(['Bash(curl *:*)', 'Write']);
    expect(changes.allowedTools.removed).toEqual(['Bash(git status:*)']);
    expect(changes.skillFileDiff).toEqual(['@@ -1,1 +1,1 @@', '-x', '+y']);
  });
});
