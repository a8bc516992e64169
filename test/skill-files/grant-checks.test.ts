import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { loadYaml } from '../../src/node/yaml.js';
import { checkSkillDirectory } from '../../src/skill-files/check.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

const codesAt = (root: string, name: string) =>
  checkSkillDirectory(
    createNodeFileSystem(),
    { directory: join(root, name), skillFileName: 'SKILL.md' },
    { yaml: loadYaml },
  )
    .diagnostics.filter((d) => d.code.startsWith('ALLOWED_TOOLS'))
    .map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);

describe('checkAllowedTools across skills', () => {
  it('places the problems of a value seen before where each file has them', () => {
    const root = tempDir();
    const value = 'Read Frobnicate Bash';
    writeTree(root, {
      'one/SKILL.md': skillText(`name: one\ndescription: d\nallowed-tools: ${value}`),
      'two/SKILL.md': skillText(
        `name: two\ndescription: d\nlicense: MIT\nallowed-tools:   ${value}`,
      ),
      // The list form joins to the same value; its problems point at the value's start.
      'three/SKILL.md': skillText(
        'name: three\ndescription: d\nallowed-tools:\n  - Read\n  - Frobnicate\n  - Bash',
      ),
    });
    const one = codesAt(root, 'one');
    expect(one).toEqual([
      "ALLOWED_TOOLS_UNKNOWN 4:21 Unknown tool 'Frobnicate'",
      expect.stringMatching(/^ALLOWED_TOOLS_TOO_BROAD 4:32 /),
    ]);
    expect(codesAt(root, 'one')).toEqual(one);
    const two = codesAt(root, 'two');
    expect(two.map((line) => line.replace(/ \d+:\d+ /, ' '))).toEqual(
      one.map((line) => line.replace(/ \d+:\d+ /, ' ')),
    );
    expect(two.map((line) => line.split(' ')[1])).toEqual(['5:23', '5:34']);
    expect(codesAt(root, 'three').map((line) => line.split(' ')[1])).toEqual(['5:3', '5:3', '5:3']);
  });

  it('gives each of many distinct values its own problems', () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let index = 0; index < 300; index += 1)
      files[`s${index}/SKILL.md`] = skillText(
        `name: s${index}\ndescription: d\nallowed-tools: Read Tool${index}`,
      );
    writeTree(root, files);
    for (const index of [0, 150, 299, 0]) {
      expect(codesAt(root, `s${index}`)).toEqual([
        `ALLOWED_TOOLS_UNKNOWN 4:21 Unknown tool 'Tool${index}'`,
      ]);
    }
  });
});
