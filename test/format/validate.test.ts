import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { catalogProperties, skillProperties } from '../../src/format/properties.js';
import { validateSkill } from '../../src/format/validate.js';
// Through the public entry, which gives the parser the YAML library.
import { parseSkill } from '../../src/index.js';

function check(
  frontmatter: string,
  options: { directory?: string; mode?: 'strict' | 'lenient'; body?: string } = {},
) {
  const parsed = parseSkill(`---\n${frontmatter}\n---\n${options.body ?? 'Body text.\n'}`, {
    file: '/skills/x/SKILL.md',
    directoryName: options.directory ?? 'demo',
  });
  return validateSkill(parsed, { mode: options.mode ?? 'strict' });
}

const errors = (diagnostics: Diagnostic[]) =>
  diagnostics
    .filter((diagnostic) => diagnostic.severity === 'error')
    .map((diagnostic) => diagnostic.code);
const warnings = (diagnostics: Diagnostic[]) =>
  diagnostics
    .filter((diagnostic) => diagnostic.severity === 'warning')
    .map((diagnostic) => diagnostic.code);

describe('name rules (the reference validator verdicts)', () => {
  it.each([
    ['demo', []],
    ['pdf-processing', []],
    ['a', []],
    ['x1-y2', []],
  ])('accepts %s', (name, expected) => {
    expect(errors(check(`name: ${name}\ndescription: d`, { directory: name }))).toEqual(expected);
  });

  it.each([
    ['MySkill', ['NAME_NOT_LOWERCASE']],
    ['my_skill', ['NAME_INVALID_CHARACTERS']],
    ['-pdf', ['NAME_HYPHEN_EDGE']],
    ['pdf-', ['NAME_HYPHEN_EDGE']],
    ['pdf--tools', ['NAME_CONSECUTIVE_HYPHENS']],
    ['my skill', ['NAME_INVALID_CHARACTERS']],
    ['НАВЫК', ['NAME_NOT_LOWERCASE']],
    ['a'.repeat(65), ['NAME_TOO_LONG']],
  ])('rejects %s', (name, expected) => {
    expect(errors(check(`name: "${name}"\ndescription: d`, { directory: name }))).toEqual(expected);
  });

  it('accepts Unicode lower-case letters and warns about portability', () => {
    const diagnostics = check('name: 技能\ndescription: d', { directory: '技能' });
    expect(errors(diagnostics)).toEqual([]);
    expect(warnings(diagnostics)).toContain('NAME_NOT_ASCII');
    expect(errors(check('name: навык\ndescription: d', { directory: 'навык' }))).toEqual([]);
  });

  it('counts the length in code points, not UTF-16 units', () => {
    const name = '𝒶'.repeat(64);
    const normalised = name.normalize('NFKC');
    expect(errors(check(`name: ${name}\ndescription: d`, { directory: normalised }))).toEqual([]);
    const long = '技'.repeat(65);
    expect(errors(check(`name: ${long}\ndescription: d`, { directory: long }))).toEqual([
      'NAME_TOO_LONG',
    ]);
  });

  it('trims and NFKC-normalises the name, and the directory name, before comparing', () => {
    const diagnostics = check('name: "  ﬁle-tool  "\ndescription: d', { directory: 'file-tool' });
    expect(errors(diagnostics)).toEqual([]);
    expect(warnings(diagnostics)).toContain('NAME_NOT_NORMALIZED');
    expect(errors(check('name: file-tool\ndescription: d', { directory: 'ﬁle-tool' }))).toEqual([]);
  });

  it('treats U+0130 (capital I with dot) as not lower-case', () => {
    expect(errors(check('name: İstanbul\ndescription: d', { directory: 'İstanbul' }))).toEqual([
      'NAME_NOT_LOWERCASE',
    ]);
  });

  it('requires the name to match the directory', () => {
    const diagnostics = check('name: other\ndescription: d', { directory: 'demo' });
    expect(errors(diagnostics)).toEqual(['NAME_DIRECTORY_MISMATCH']);
    expect(diagnostics[0]).toMatchObject({ line: 2, column: 7, file: '/skills/x/SKILL.md' });
  });

  it('reports a missing, empty or non-text name', () => {
    expect(errors(check('description: d'))).toEqual(['NAME_MISSING']);
    expect(errors(check('name:\ndescription: d'))).toEqual(['NAME_EMPTY']);
    expect(errors(check('name: "  "\ndescription: d'))).toEqual(['NAME_EMPTY']);
    expect(errors(check('name:\n  - a\ndescription: d'))).toEqual(['NAME_NOT_STRING']);
  });
});

describe('description, compatibility and other fields', () => {
  it('limits the description to 1024 code points (untrimmed, as the reference counts)', () => {
    expect(errors(check(`name: demo\ndescription: ${'a'.repeat(1024)}`))).toEqual([]);
    expect(errors(check(`name: demo\ndescription: ${'a'.repeat(1025)}`))).toEqual([
      'DESCRIPTION_TOO_LONG',
    ]);
    expect(errors(check(`name: demo\ndescription: ${'😀'.repeat(1024)}`))).toEqual([]);
    expect(errors(check(`name: demo\ndescription: |\n  ${'a'.repeat(1024)}`))).toEqual([
      'DESCRIPTION_TOO_LONG',
    ]);
  });

  it('reports a missing, empty or non-text description', () => {
    expect(errors(check('name: demo'))).toEqual(['DESCRIPTION_MISSING']);
    expect(errors(check('name: demo\ndescription: ""'))).toEqual(['DESCRIPTION_EMPTY']);
    expect(errors(check('name: demo\ndescription:\n  a: b'))).toEqual(['DESCRIPTION_NOT_STRING']);
  });

  it('limits compatibility to 500 code points and requires text', () => {
    expect(errors(check(`name: demo\ndescription: d\ncompatibility: ${'c'.repeat(500)}`))).toEqual(
      [],
    );
    expect(errors(check(`name: demo\ndescription: d\ncompatibility: ${'c'.repeat(501)}`))).toEqual([
      'COMPATIBILITY_TOO_LONG',
    ]);
    expect(errors(check('name: demo\ndescription: d\ncompatibility:\n  - node'))).toEqual([
      'COMPATIBILITY_NOT_STRING',
    ]);
    expect(warnings(check('name: demo\ndescription: d\ncompatibility: ""'))).toContain(
      'COMPATIBILITY_EMPTY',
    );
  });

  it('rejects unknown fields, one diagnostic each, at the key', () => {
    const diagnostics = check('name: demo\ndescription: d\nversion: 1\ntags: x');
    expect(errors(diagnostics)).toEqual(['FIELD_UNKNOWN', 'FIELD_UNKNOWN']);
    expect(diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.column])).toEqual([
      [4, 1],
      [5, 1],
    ]);
  });

  it('requires metadata values and allowed-tools to be text (stricter than the reference)', () => {
    expect(errors(check('name: demo\ndescription: d\nmetadata:\n  tags:\n    - a'))).toEqual([
      'METADATA_VALUE_NOT_STRING',
    ]);
    expect(errors(check('name: demo\ndescription: d\nmetadata: text'))).toEqual([
      'METADATA_NOT_MAPPING',
    ]);
    expect(errors(check('name: demo\ndescription: d\nallowed-tools:\n  - Read\n  - Bash'))).toEqual(
      ['ALLOWED_TOOLS_NOT_STRING'],
    );
    expect(errors(check('name: demo\ndescription: d\nlicense:\n  - MIT'))).toEqual([
      'LICENSE_NOT_STRING',
    ]);
  });

  it('warns about flow-style YAML, which the reference rejects', () => {
    const diagnostics = check('name: demo\ndescription: d\nmetadata: {a: b}');
    expect(errors(diagnostics)).toEqual([]);
    expect(warnings(diagnostics)).toContain('YAML_FLOW_STYLE');
  });
});

describe('lenient mode (runtime loading)', () => {
  it('downgrades name and optional-field problems to warnings', () => {
    const diagnostics = check(
      'name: Other_Name\ndescription: d\nversion: 1\nmetadata:\n  x:\n    - y\nallowed-tools:\n  - Read',
      {
        mode: 'lenient',
      },
    );
    expect(errors(diagnostics)).toEqual([]);
    expect(warnings(diagnostics)).toEqual(
      expect.arrayContaining([
        'NAME_NOT_LOWERCASE',
        'NAME_INVALID_CHARACTERS',
        'NAME_DIRECTORY_MISMATCH',
        'FIELD_CLIENT_SPECIFIC',
        'METADATA_VALUE_NOT_STRING',
        'ALLOWED_TOOLS_NOT_STRING',
      ]),
    );
  });

  it('says which name a mismatched skill is known by, and refuses folders that cannot name one', () => {
    const mismatch = check('name: alpha\ndescription: d', { mode: 'lenient', directory: 'zzz' });
    expect(mismatch.find((d) => d.code === 'NAME_DIRECTORY_MISMATCH')?.message).toBe(
      "Skill name 'alpha' differs from its directory name 'zzz'; it is known as 'zzz'",
    );
    for (const directory of ['alpha\u200b', 'al\u202epha', ' alpha', 'alpha\u0007', 'a@home']) {
      expect(errors(check('name: alpha\ndescription: d', { mode: 'lenient', directory }))).toEqual([
        'DIRECTORY_NAME_INVALID',
      ]);
    }
    // Strict validation already calls these invalid (the name cannot equal the folder's).
    expect(errors(check('name: alpha\ndescription: d', { directory: 'alpha\u200b' }))).toEqual([
      'NAME_DIRECTORY_MISMATCH',
    ]);
    for (const directory of ['Alpha', 'my_skill', 'owner--repo--skill', '技能'])
      expect(errors(check('name: alpha\ndescription: d', { mode: 'lenient', directory }))).toEqual(
        [],
      );
  });

  it('still rejects what makes a skill unusable', () => {
    expect(errors(check('name: demo', { mode: 'lenient' }))).toEqual(['DESCRIPTION_MISSING']);
    expect(errors(check('name: demo\ndescription: " "', { mode: 'lenient' }))).toEqual([
      'DESCRIPTION_EMPTY',
    ]);
    expect(errors(check('description: d', { mode: 'lenient' }))).toEqual(['NAME_MISSING']);
    expect(errors(check('name: demo\ndescription: a: b', { mode: 'lenient' }))).toEqual([
      'YAML_SYNTAX',
    ]);
  });
});

describe('properties (reference read-properties shape)', () => {
  it('trims name and description and includes optional fields only when present', () => {
    const parsed = parseSkill(
      '---\nname: "  demo "\ndescription: >\n  Does\n  things.\nlicense: MIT\nallowed-tools: Read Bash(git:*)\nmetadata:\n  author: me\n---\n',
      { file: 'f' },
    );
    expect(skillProperties(parsed)).toEqual({
      name: 'demo',
      description: 'Does things.',
      license: 'MIT',
      'allowed-tools': 'Read Bash(git:*)',
      metadata: { author: 'me' },
    });
    expect(Object.keys(skillProperties(parsed) ?? {})).toEqual([
      'name',
      'description',
      'license',
      'allowed-tools',
      'metadata',
    ]);
  });

  it('leaves out empty metadata and is undefined without a usable name or description', () => {
    const parsed = parseSkill('---\nname: demo\ndescription: d\nmetadata: {}\n---\n', {
      file: 'f',
    });
    expect(skillProperties(parsed)).toEqual({ name: 'demo', description: 'd' });
    expect(skillProperties(parseSkill('---\nname: demo\n---\n', { file: 'f' }))).toBeUndefined();
  });

  it('gives a catalog the name and description alone, in the same cases', () => {
    for (const frontmatter of [
      'name: "  demo "\ndescription: >\n  Does\n  things.\nlicense: MIT\nmetadata:\n  author: me',
      'name: demo\ndescription: d',
      'name: demo',
      'name: demo\ndescription: "   "',
      'name: 3\ndescription: d',
      'description: d',
    ]) {
      const parsed = parseSkill(`---\n${frontmatter}\n---\n`, { file: 'f' });
      const full = skillProperties(parsed);
      expect(catalogProperties(parsed), frontmatter).toEqual(
        full === undefined ? undefined : { name: full.name, description: full.description },
      );
    }
    const parsed = parseSkill('---\nname: demo\ndescription: d\nlicense: MIT\n---\n', {
      file: 'f',
    });
    expect(Object.keys(catalogProperties(parsed) ?? {})).toEqual(['name', 'description']);
  });
});
