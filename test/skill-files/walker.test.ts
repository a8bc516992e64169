import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { type WalkOptions, walkSkillTree } from '../../src/skill-files/walker.js';
import { tempDir, writeSkill, writeTree } from '../helpers/temp.js';

const fs = createNodeFileSystem();

function walk(root: string, options: WalkOptions = {}) {
  const skills: string[] = [];
  const diagnostics: Diagnostic[] = [];
  walkSkillTree(
    fs,
    root,
    { skill: (found) => skills.push(found.directory), diagnostic: (d) => diagnostics.push(d) },
    options,
  );
  return { skills, codes: diagnostics.map((d) => d.code), diagnostics };
}

describe('walkSkillTree', () => {
  it('finds skills at any depth, skips .git and node_modules, nested skills included', () => {
    const root = tempDir();
    writeSkill(root, 'b-skill');
    writeSkill(join(root, 'group'), 'a-skill');
    writeSkill(join(root, 'node_modules'), 'hidden');
    writeSkill(join(root, '.git'), 'hidden-too');
    writeSkill(join(root, 'b-skill', 'nested'), 'inner');
    const { skills } = walk(root);
    expect([...skills].sort()).toEqual(
      [
        join(root, 'b-skill'),
        join(root, 'b-skill/nested/inner'),
        join(root, 'group/a-skill'),
      ].sort(),
    );
  });

  it('treats a directory with an entry named SKILL.md of any type as a skill', () => {
    const root = tempDir();
    mkdirSync(join(root, 'odd', 'SKILL.md'), { recursive: true });
    writeTree(root, { 'lower/skill.md': 'x' });
    expect(walk(root).skills.sort()).toEqual([join(root, 'lower'), join(root, 'odd')]);
  });

  it('reports the depth limit once and skips deeper folders', () => {
    const root = tempDir();
    writeSkill(join(root, 'a/b/c/d'), 'deep');
    writeSkill(root, 'shallow');
    const result = walk(root, { maxDepth: 2 });
    expect(result.skills).toEqual([join(root, 'shallow')]);
    expect(result.codes).toEqual(['WALK_DEPTH_LIMIT']);
  });

  it('stops at the directory limit and says so', () => {
    const root = tempDir();
    for (let index = 0; index < 10; index += 1) writeSkill(root, `s${index}`);
    const result = walk(root, { maxDirectories: 4 });
    expect(result.skills.length).toBeLessThan(10);
    expect(result.codes).toContain('WALK_DIRECTORY_LIMIT');
  });

  it('follows a linked skill directory but never into a loop', () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'linked');
    symlinkSync(join(elsewhere, 'linked'), join(root, 'linked'));
    mkdirSync(join(root, 'loop'));
    symlinkSync(root, join(root, 'loop', 'back'));
    symlinkSync('.', join(root, 'self'));
    const result = walk(root, { followSymlinks: true });
    expect(result.skills).toEqual([join(root, 'linked')]);
    expect(result.codes.filter((code) => code === 'WALK_SYMLINK_LOOP').length).toBe(2);
    const noFollow = walk(root);
    expect(noFollow.skills).toEqual([]);
    expect(noFollow.codes).toEqual([
      'WALK_SYMLINK_SKIPPED',
      'WALK_SYMLINK_SKIPPED',
      'WALK_SYMLINK_SKIPPED',
    ]);
  });

  it('answers link checks from its listings', () => {
    const root = tempDir();
    writeSkill(root, 'demo', { 'references/guide.md': 'g' });
    let listed: ((path: string) => boolean | undefined) | undefined;
    walkSkillTree(fs, root, { skill: (found) => (listed = found.listed), diagnostic: () => {} });
    expect(listed?.('references/guide.md')).toBe(true);
    expect(listed?.('references/other.md')).toBe(false);
    expect(listed?.('assets/x.png')).toBeUndefined();
  });

  it('visits in sorted order', () => {
    const root = tempDir();
    for (const name of ['zeta', 'alpha', 'Mid', 'beta']) writeSkill(root, name);
    const order: string[] = [];
    walkSkillTree(fs, root, {
      skill: (found) => order.push(found.directory.slice(root.length + 1)),
      diagnostic: () => {},
    });
    expect(order).toEqual(['Mid', 'alpha', 'beta', 'zeta']);
    writeFileSync(join(root, 'SKILL.md'), 'root skill');
  });
});
