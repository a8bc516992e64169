import { describe, expect, it } from 'vitest';
import { SkillhostError } from '../../src/errors.js';
// Through the public entry, which gives the parser the YAML library.
import { loadSkill } from '../../src/index.js';

const text = (frontmatter: string, body = '\n# Body\n\nSteps.\n') =>
  `---\n${frontmatter}\n---\n${body}`;

describe('loadSkill', () => {
  it('returns normalised metadata and the trimmed body', () => {
    const skill = loadSkill(
      text(
        'name: " demo "\ndescription: |\n  Does things.\nmetadata:\n  author: me\n  tags:\n    - a',
      ),
      { file: 'demo/SKILL.md', directoryName: 'demo' },
    );
    expect(skill.metadata).toEqual({
      name: 'demo',
      description: 'Does things.',
      metadata: { author: 'me' },
    });
    expect(skill.body).toBe('# Body\n\nSteps.');
    expect(skill.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['METADATA_VALUE_NOT_STRING', 'NAME_NOT_NORMALIZED']),
    );
  });

  it('normalises an allowed-tools list when loading leniently', () => {
    const skill = loadSkill(
      text('name: demo\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)'),
      {
        file: 'f',
        directoryName: 'demo',
      },
    );
    expect(skill.metadata.allowedTools).toBe('Read Bash(git:*)');
  });

  it('leaves the body out at the metadata level', () => {
    const skill = loadSkill(
      text('name: demo\ndescription: d'),
      { file: 'f' },
      { level: 'metadata' },
    );
    expect(skill.body).toBeUndefined();
  });

  it('throws a coded error that carries every diagnostic', () => {
    let caught: unknown;
    try {
      loadSkill(text('name: demo'), { file: 'demo/SKILL.md' });
    } catch (error) {
      caught = error;
    }
    expect(SkillhostError.isInstance(caught)).toBe(true);
    const error = caught as SkillhostError;
    expect(error.code).toBe('SKILL_INVALID');
    expect(error.message).toContain('demo/SKILL.md');
    expect(error.diagnostics.map((d) => d.code)).toEqual(['DESCRIPTION_MISSING']);
  });

  it('throws in strict mode for what lenient mode only warns about', () => {
    const source = text('name: Demo\ndescription: d');
    expect(() => loadSkill(source, { file: 'f', directoryName: 'Demo' })).not.toThrow();
    expect(() =>
      loadSkill(source, { file: 'f', directoryName: 'Demo' }, { mode: 'strict' }),
    ).toThrow(SkillhostError);
  });

  it('recognises errors from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('skillhost.error')]: true });
    expect(SkillhostError.isInstance(foreign)).toBe(true);
    expect(SkillhostError.isInstance(new Error('x'))).toBe(false);
  });
});
