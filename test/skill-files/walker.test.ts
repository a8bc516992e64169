import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import {
  listFolder,
  WALK_DEFAULTS,
  type WalkOptions,
  walkSkillTree,
} from '../../src/skill-files/walker.js';
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
  it('finds skills at any depth, skips .git and node_modules, never searches inside a skill', () => {
    const root = tempDir();
    writeSkill(root, 'b-skill');
    writeSkill(join(root, 'group'), 'a-skill');
    writeSkill(join(root, 'node_modules'), 'hidden');
    writeSkill(join(root, '.git'), 'hidden-too');
    // A skill's sub-folders are its resources: a SKILL.md in one is not another skill.
    writeSkill(join(root, 'b-skill', 'nested'), 'inner');
    const { skills } = walk(root);
    expect([...skills].sort()).toEqual([join(root, 'b-skill'), join(root, 'group/a-skill')]);
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

  it('stops at the folder limit and says so; skill directories do not count', () => {
    const root = tempDir();
    for (let index = 0; index < 10; index += 1) writeSkill(root, `s${index}`);
    expect(walk(root, { maxDirectories: 1 }).skills).toHaveLength(10);
    for (let index = 0; index < 10; index += 1) writeSkill(join(root, `group${index}`), 'x');
    const result = walk(root, { maxDirectories: 4 });
    expect(result.skills.length).toBeLessThan(20);
    expect(result.codes).toEqual(['WALK_DIRECTORY_LIMIT']);
  });

  it('stops at the skill limit and says so', () => {
    const root = tempDir();
    for (let index = 0; index < 10; index += 1) writeSkill(root, `s${index}`);
    const result = walk(root, { maxSkills: 3 });
    expect(result.skills).toHaveLength(3);
    expect(result.codes).toEqual(['WALK_SKILL_LIMIT']);
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

  it('lists a skill directory once and none of its sub-folders', () => {
    const root = tempDir();
    writeSkill(root, 'demo', { 'references/guide.md': 'g', 'scripts/run.sh': 'echo' });
    const listed: string[] = [];
    const counting = {
      ...fs,
      listDirectory: (path: string) => {
        listed.push(path);
        return fs.listDirectory(path);
      },
    };
    walkSkillTree(counting, root, { skill: () => {}, diagnostic: () => {} });
    expect(listed).toEqual([root, join(root, 'demo')]);
  });

  it('lets a caller reuse what it knows: known skills and its own listings', () => {
    const root = tempDir();
    writeSkill(root, 'known');
    writeSkill(root, 'fresh');
    const found: string[] = [];
    const asked: string[] = [];
    const result = walkSkillTree(fs, root, {
      skill: (skill) => found.push(skill.directory),
      diagnostic: () => {},
      knownSkill: (directory) => directory === join(root, 'known'),
      list: (directory, skipNames) => {
        asked.push(directory);
        return listFolder(fs, directory, skipNames);
      },
    });
    expect(found).toEqual([join(root, 'fresh')]);
    expect(asked).toEqual([root, join(root, 'fresh')]);
    expect(result).toEqual({ skills: 2, directories: 1 });
  });

  it('has one table of defaults', () => {
    expect(WALK_DEFAULTS).toMatchObject({
      maxDepth: 6,
      maxDirectories: 2000,
      maxSkills: 50_000,
      followSymlinks: false,
    });
    expect([...WALK_DEFAULTS.skipNames].sort()).toEqual(['.git', 'node_modules']);
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

  it('tells the visitor the folders it is about to visit, and when it is done with them', () => {
    const root = tempDir();
    writeSkill(root, 'b-skill');
    writeSkill(root, 'c-skill');
    writeSkill(join(root, 'group'), 'a-skill');
    const events = (options: WalkOptions) => {
      const seen: string[] = [];
      walkSkillTree(
        fs,
        root,
        {
          skill: (found) => seen.push(`skill ${found.directory.slice(root.length + 1)}`),
          diagnostic: () => {},
          children: (directory, children) => {
            const where = directory === root ? '.' : directory.slice(root.length + 1);
            seen.push(`about ${where}: ${children.map((child) => child.name).join(' ')}`);
            return () => seen.push(`done ${where}`);
          },
        },
        options,
      );
      return seen;
    };
    expect(events({})).toEqual([
      'about .: b-skill c-skill group',
      'skill b-skill',
      'skill c-skill',
      'about group: a-skill',
      'skill group/a-skill',
      'done group',
      'done .',
    ]);
    // A limit that stops the walk inside the root's folders still ends what was begun.
    expect(events({ maxSkills: 2 })).toEqual([
      'about .: b-skill c-skill group',
      'skill b-skill',
      'skill c-skill',
      'done .',
    ]);
  });
});
