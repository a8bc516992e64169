import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadWithinOptions, SkillFileSystem } from '../../src/deps.js';
import { SkillhostError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { readSkillRecord } from '../../src/registry/discover.js';
import { StringTable } from '../../src/registry/strings.js';
import { checkSkillDirectory } from '../../src/skill-files/check.js';
import { loadSkillDirectory, readSkillDirectory } from '../../src/skill-files/load.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

/** The real file system, recording how many bytes each read may return. */
function recordingFs(): SkillFileSystem & { reads: ReadWithinOptions[] } {
  const real = createNodeFileSystem();
  const reads: ReadWithinOptions[] = [];
  return {
    ...real,
    reads,
    readFileWithin: (root, path, options) => {
      reads.push(options);
      return real.readFileWithin(root, path, options);
    },
  };
}

describe('the body characters of a skill file read from disk', () => {
  it('finds controls and hidden characters wherever they are, and nothing in plain text', () => {
    const root = tempDir();
    const body = `# Title\n\n${'Plain words, one line after another.\n'.repeat(4)}`;
    const cases: Array<[string, string, string | undefined]> = [
      ['plain', body, undefined],
      ['tabs', `${body}\tindented\r\n`, undefined],
      ['escape', `${body}see \u001b[2J here\n`, 'BODY_CONTROL_CHARACTERS'],
      ['delete', `${body}x\u007fy\n`, 'BODY_CONTROL_CHARACTERS'],
      ['c1', `${body}x\u0085y\n`, 'BODY_CONTROL_CHARACTERS'],
      ['first', `\u0007${body}`, 'BODY_CONTROL_CHARACTERS'],
      ['hidden', `${body}zero\u200bwidth\n`, 'BODY_HIDDEN_UNICODE'],
      ['accents', `${body}café\n`, undefined],
    ];
    for (const [name, text, code] of cases) {
      const directory = join(root, name);
      writeTree(root, {
        [`${name}/SKILL.md`]: `---\nname: ${name}\ndescription: A skill.\n---\n${text}`,
      });
      const codes = checkSkillDirectory(createNodeFileSystem(), {
        directory,
        skillFileName: 'SKILL.md',
      }).diagnostics.map((diagnostic) => diagnostic.code);
      expect(codes, name).toEqual(code === undefined ? [] : [code]);
    }
  });
});

describe('readSkillDirectory', () => {
  it('reads only the head of SKILL.md at the metadata level', () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText('name: demo\ndescription: d', `# Body\n${'x'.repeat(200_000)}\n`),
    });
    const fs = recordingFs();
    const result = readSkillDirectory(fs, join(root, 'demo'), { level: 'metadata' });
    expect(result.skill?.metadata.name).toBe('demo');
    expect(result.skill?.body).toBeUndefined();
    expect(fs.reads[0]).toMatchObject({ allowPartial: true });
    expect(fs.reads[0]?.maxBytes).toBeLessThan(100_000);
    const full = readSkillDirectory(fs, join(root, 'demo'), { level: 'full' });
    expect(full.skill?.body?.length).toBeGreaterThan(200_000);
  });

  it('refuses a frontmatter that does not close within the cap at the metadata level', () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': `---\nname: demo\ndescription: d\n${'# filler\n'.repeat(20_000)}`,
    });
    const result = readSkillDirectory(createNodeFileSystem(), join(root, 'demo'), {
      level: 'metadata',
    });
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['FRONTMATTER_TOO_LARGE']);
  });

  it('refuses a file over the size cap at either level', () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText('name: demo\ndescription: d', 'x'.repeat(300_000)),
    });
    for (const level of ['metadata', 'full'] as const) {
      const result = readSkillDirectory(createNodeFileSystem(), join(root, 'demo'), { level });
      expect(result.diagnostics.map((d) => d.code)).toEqual(['SKILL_FILE_TOO_LARGE']);
    }
  });

  it('loads leniently by default and reports what it would not load', () => {
    const root = tempDir();
    writeTree(root, { 'Demo/SKILL.md': skillText('name: Demo\ndescription: d\nwhen_to_use: now') });
    const result = readSkillDirectory(createNodeFileSystem(), join(root, 'Demo'));
    expect(result.skill?.metadata.name).toBe('Demo');
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['NAME_NOT_LOWERCASE', 'warning'],
      ['FIELD_CLIENT_SPECIFIC', 'warning'],
    ]);
    expect(() => loadSkillDirectory(createNodeFileSystem(), join(root, 'missing'))).toThrow(
      SkillhostError,
    );
  });

  it('checks body links against the disk at the full level', () => {
    const root = tempDir();
    writeSkill(root, 'demo');
    writeFileSync(
      join(root, 'demo', 'SKILL.md'),
      skillText('name: demo\ndescription: d', 'See [g](references/g.md).\n'),
    );
    const result = readSkillDirectory(createNodeFileSystem(), join(root, 'demo'));
    expect(result.diagnostics.map((d) => d.code)).toEqual(['LINK_BROKEN']);
  });

  it('does not read a SKILL.md that links out of the skill', () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'x.md'), skillText('name: demo\ndescription: secret'));
    writeTree(root, { 'demo/keep': '' });
    symlinkSync(join(outside, 'x.md'), join(root, 'demo', 'SKILL.md'));
    const result = readSkillDirectory(createNodeFileSystem(), join(root, 'demo'));
    expect(result.skill).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['SKILL_FILE_SYMLINK_ESCAPE']);
    expect(JSON.stringify(result)).not.toContain('secret');
  });
});

/** Diagnostics only a full read can give: the metadata level never sees the body. */
const bodyCodes = new Set([
  'BODY_EMPTY',
  'BODY_TOO_MANY_LINES',
  'BODY_TOO_MANY_TOKENS',
  'LINK_BROKEN',
  'LINK_OUTSIDE_SKILL',
]);

describe('one reader for validation, loading and discovery', () => {
  const files: Record<string, string | Uint8Array> = {
    'plain/SKILL.md': skillText('name: plain\ndescription: d'),
    'lower/skill.md': skillText('name: lower\ndescription: d'),
    'grants/SKILL.md': skillText('name: grants\ndescription: d\nallowed-tools: Bash Frobnicate(x)'),
    'Mixed/SKILL.md': skillText('name: Mixed\ndescription: d\nwhen_to_use: now\nextra: 1'),
    'links/SKILL.md': skillText('name: links\ndescription: d', 'See [a](references/a.md).\n'),
    'bom/SKILL.md': `\uFEFF${skillText('name: bom\ndescription: d')}`,
    'yaml/SKILL.md': skillText('name: yaml\ndescription: d\nmetadata: [a, b'),
    'empty/SKILL.md': skillText('name: empty\ndescription: ""'),
    'unclosed/SKILL.md': `---\nname: unclosed\ndescription: d\n${'# x\n'.repeat(25_000)}`,
    'huge-frontmatter/SKILL.md': skillText(
      `name: huge-frontmatter\ndescription: d\n${'# filler line\n'.repeat(6000)}`,
    ),
    'too-large/SKILL.md': skillText('name: too-large\ndescription: d', 'x'.repeat(300_000)),
    'binary/SKILL.md': new Uint8Array([45, 45, 45, 10, 0, 1, 2, 10]),
  };

  it('gives the same diagnostics for the same file, whichever use reads it', () => {
    const root = writeTree(tempDir(), files);
    const fs = createNodeFileSystem();
    for (const path of Object.keys(files)) {
      const [name, skillFileName] = path.split('/') as [string, string];
      const directory = join(root, name);
      const summary = (list: readonly { code: string; severity: string; line: number }[]) =>
        list.map((d) => `${d.code}:${d.severity}:${d.line}`);
      const discovered = readSkillRecord(
        fs,
        { directory, realDirectory: directory, skillFileName, skillFileKind: 'file' },
        { strings: new StringTable() },
      ).diagnostics;
      const metadata = readSkillDirectory(fs, directory, { level: 'metadata' }).diagnostics;
      const full = readSkillDirectory(fs, directory, { level: 'full' }).diagnostics;
      const validated = checkSkillDirectory(fs, { directory, skillFileName }, { mode: 'lenient' });
      expect(summary(metadata), path).toEqual(summary(discovered));
      expect(summary(validated.diagnostics), path).toEqual(summary(full));
      expect(summary(full.filter((d) => !bodyCodes.has(d.code))), path).toEqual(summary(metadata));
      // Strict validation finds the same problems at the same places; the mode only decides
      // how grave each is (and names a client-specific field as an unknown one).
      const strict = checkSkillDirectory(fs, { directory, skillFileName });
      const places = (list: readonly { line: number; column: number }[]) =>
        list.map((d) => `${d.line}:${d.column}`);
      expect(places(strict.diagnostics), path).toEqual(places(full));
    }
  });

  it('reports allowed-tools problems when loading too', () => {
    const root = writeTree(tempDir(), files);
    const result = readSkillDirectory(createNodeFileSystem(), join(root, 'grants'));
    expect(result.skill?.metadata.allowedTools).toBe('Bash Frobnicate(x)');
    expect(result.diagnostics.map((d) => d.code)).toContain('ALLOWED_TOOLS_UNKNOWN');
  });

  it('says a frontmatter that does not close within the head is too large, at both levels', () => {
    const root = writeTree(tempDir(), files);
    const fs = createNodeFileSystem();
    for (const name of ['unclosed', 'huge-frontmatter']) {
      for (const level of ['metadata', 'full'] as const) {
        const result = readSkillDirectory(fs, join(root, name), { level });
        expect(
          result.diagnostics.map((d) => [d.code, d.message]),
          `${name} ${level}`,
        ).toEqual([['FRONTMATTER_TOO_LARGE', 'No closing --- line within the first 65536 bytes']]);
      }
    }
  });
});
