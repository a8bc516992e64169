import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/format/parse.js';
import { validateSkill } from '../../src/format/validate.js';
import { validatePaths } from '../../src/node/index.js';
import { validateSkillPaths } from '../../src/skill-files/validate-paths.js';
import { createMemoryFileSystem, skillFixture } from '../../src/testing/index.js';
import { tempDir, writeTree } from '../helpers/temp.js';

describe('skillFixture', () => {
  it('makes a valid skill folder with defaults', () => {
    const files = skillFixture({ name: 'pdf' });
    expect(Object.keys(files)).toEqual(['pdf/SKILL.md']);
    expect(files['pdf/SKILL.md']).toBe(
      '---\nname: pdf\ndescription: Does pdf things. Use when asked.\n---\n# Title\n\nDo the thing.\n',
    );
    const parsed = parseSkill(files['pdf/SKILL.md'] as string, {
      file: 'pdf/SKILL.md',
      directoryName: 'pdf',
    });
    expect(validateSkill(parsed, { mode: 'strict' })).toEqual([]);
  });

  it('writes the fields, extra frontmatter lines, body and files as given', () => {
    const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const files = skillFixture({
      name: 'report',
      description: 'Makes reports. Use for monthly reports.',
      frontmatter: ['allowed-tools: Bash(sh scripts/run.sh:*)', 'license: MIT\n'],
      body: '# Report\n',
      files: { 'scripts/run.sh': 'echo hi\n', 'assets/logo.png': logo },
    });
    expect(files).toEqual({
      'report/SKILL.md':
        '---\nname: report\ndescription: Makes reports. Use for monthly reports.\nallowed-tools: Bash(sh scripts/run.sh:*)\nlicense: MIT\n---\n# Report\n',
      'report/scripts/run.sh': 'echo hi\n',
      'report/assets/logo.png': logo,
    });
    expect(skillFixture({ name: 'x', frontmatter: 'license: MIT' })['x/SKILL.md']).toContain(
      '\nlicense: MIT\n---\n',
    );
  });

  it('puts the files in another folder, or at the top', () => {
    expect(Object.keys(skillFixture({ name: 'pdf', folder: 'tools/pdf-2/' }))).toEqual([
      'tools/pdf-2/SKILL.md',
    ]);
    expect(Object.keys(skillFixture({ name: 'pdf', folder: '', files: { 'a.md': '' } }))).toEqual([
      'SKILL.md',
      'a.md',
    ]);
  });

  it('makes a skills folder, on disk or in memory, that the validator reads the same', () => {
    const files = {
      ...skillFixture({ name: 'good' }),
      // Written raw: a hostile value stays as given.
      ...skillFixture({ name: 'bad', description: '"unclosed' }),
    };
    const verdicts = (report: ReturnType<typeof validatePaths>) =>
      report.results.map((result) => [result.path.split('/').at(-1), result.valid]);
    const onDisk = validatePaths([writeTree(tempDir(), files)]);
    const inMemory = validateSkillPaths(['/skills'], {
      fs: createMemoryFileSystem(files, { root: '/skills' }),
    });
    expect(verdicts(onDisk)).toEqual([
      ['bad', false],
      ['good', true],
    ]);
    expect(verdicts(inMemory)).toEqual(verdicts(onDisk));
  });
});
