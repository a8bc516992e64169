import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadWithinOptions, SkillFileSystem } from '../../src/deps.js';
import { SkillhostError } from '../../src/errors.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
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
