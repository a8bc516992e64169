import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkillFileSystem } from '../../src/deps.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { checkSkillDirectory } from '../../src/skill-files/check.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/** The real file system, recording each path whose existence is asked. */
function countingFs(): SkillFileSystem & { asked: string[] } {
  const real = createNodeFileSystem();
  const asked: string[] = [];
  return {
    ...real,
    asked,
    exists: (path) => {
      asked.push(path);
      return real.exists?.(path) ?? false;
    },
  };
}

const broken = (fs: SkillFileSystem, directory: string) =>
  checkSkillDirectory(fs, { directory, skillFileName: 'SKILL.md' })
    .diagnostics.filter((d) => d.code === 'LINK_BROKEN')
    .map((d) => `${d.line}:${d.column} ${d.message}`);

describe('link checks of a body', () => {
  it('asks once per path, however often and in whatever order the body links it', () => {
    const root = tempDir();
    const body = [
      '[a](references/a.md) [gone](references/gone.md) [b](references/b.md)',
      '[a again](references/a.md#part) [gone again](references/gone.md)',
      '[b again](./references/b.md) [a third time](references/a.md)',
      '',
    ].join('\n');
    writeTree(root, {
      'demo/SKILL.md': skillText('name: demo\ndescription: d', body),
      'demo/references/a.md': 'a',
      'demo/references/b.md': 'b',
    });
    const fs = countingFs();
    const directory = join(root, 'demo');
    expect(broken(fs, directory)).toEqual([
      "5:29 Link 'references/gone.md' points to a file that does not exist in the skill",
      "6:46 Link 'references/gone.md' points to a file that does not exist in the skill",
    ]);
    expect(fs.asked.map((path) => path.slice(directory.length + 1)).sort()).toEqual([
      'references/a.md',
      'references/b.md',
      'references/gone.md',
    ]);
  });

  it('counts a link to a symbolic link as there, even one that leads nowhere', () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText(
        'name: demo\ndescription: d',
        '[inside](references/inside.md) [dangling](references/dangling.md) [out](references/out.md)\n',
      ),
      'demo/references/real.md': 'r',
      'outside.md': 'o',
    });
    const directory = join(root, 'demo');
    symlinkSync('real.md', join(directory, 'references/inside.md'));
    symlinkSync('nowhere.md', join(directory, 'references/dangling.md'));
    symlinkSync(join(root, 'outside.md'), join(directory, 'references/out.md'));
    expect(broken(countingFs(), directory)).toEqual([]);
  });

  it('finds a file removed since the last check missing', () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText(
        'name: demo\ndescription: d',
        '[a](references/a.md) [a](references/a.md)\n',
      ),
      'demo/references/a.md': 'a',
    });
    const fs = countingFs();
    const directory = join(root, 'demo');
    expect(broken(fs, directory)).toEqual([]);
    rmSync(join(directory, 'references/a.md'));
    expect(broken(fs, directory)).toHaveLength(2);
    expect(fs.asked).toHaveLength(2);
  });
});
