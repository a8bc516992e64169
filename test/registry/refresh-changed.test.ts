import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/fs.js';
import type { RegistryChanges } from '../../src/registry/registry.js';
import { SkillRegistry } from '../../src/registry/registry.js';
import type { SkillSource } from '../../src/registry/sources.js';
import { skillText, tempDir, writeSkill } from '../helpers/temp.js';

const fs = createNodeFileSystem();

function open(root: string, extra: Partial<Parameters<typeof SkillRegistry.open>[0]> = {}) {
  const source: SkillSource = {
    id: 'explicit',
    kind: 'explicit',
    root,
    trust: 'trusted',
    enabled: true,
  };
  return SkillRegistry.open({ fs, sources: [source], ...extra });
}

function names(changes: RegistryChanges) {
  return {
    added: changes.added.map((entry) => entry.name),
    removed: changes.removed.map((entry) => entry.name),
    changed: changes.changed.map((entry) => entry.name),
  };
}

function edit(root: string, name: string, description: string): string {
  const file = join(root, name, 'SKILL.md');
  writeFileSync(file, skillText(`name: ${name}\ndescription: ${description}`));
  return file;
}

describe('refresh with the paths a watcher reported', () => {
  it('re-reads only the named skill files', () => {
    const root = tempDir();
    for (let index = 0; index < 10; index += 1) writeSkill(root, `s${index}`);
    const registry = open(root);
    const named = edit(root, 's2', 'Named.');
    edit(root, 's7', 'Not named.');
    expect(names(registry.refresh([named]))).toEqual({ added: [], removed: [], changed: ['s2'] });
    expect(registry.stats).toMatchObject({ read: 1, reused: 9 });
    expect(registry.resolve('s2')?.metadata?.description).toBe('Named.');
    // The unnamed edit is still there for a full check to find.
    expect(registry.resolve('s7')?.metadata?.description).not.toBe('Not named.');
    expect(names(registry.refresh())).toEqual({ added: [], removed: [], changed: ['s7'] });
  });

  it('ignores a change among a skill’s resources, which the registry never reads', () => {
    const root = tempDir();
    writeSkill(root, 'one', { 'references/guide.md': 'Guide.\n' });
    writeSkill(root, 'two');
    const registry = open(root);
    const resource = join(root, 'one', 'references', 'guide.md');
    writeFileSync(resource, 'Changed guide.\n');
    edit(root, 'two', 'Edited meanwhile.');
    expect(names(registry.refresh([resource, join(root, 'one', 'references')]))).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
    expect(registry.stats.read).toBe(0);
  });

  it('checks everything for a path that can add, remove or move a skill', () => {
    const root = tempDir();
    writeSkill(root, 'kept');
    writeSkill(root, 'gone');
    const registry = open(root);
    writeSkill(root, 'nested/added');
    rmSync(join(root, 'gone'), { recursive: true });
    // A new folder below a searched folder: everything is checked, so the removal is seen too.
    expect(names(registry.refresh([join(root, 'nested', 'added')]))).toEqual({
      added: ['added'],
      removed: ['gone'],
      changed: [],
    });
    renameSync(join(root, 'kept'), join(root, 'renamed'));
    expect(names(registry.refresh([join(root, 'kept')]))).toEqual({
      added: ['renamed'],
      removed: ['kept'],
      changed: [],
    });
  });

  it('checks everything when the skill file is gone, linked, or spelled another way', () => {
    const root = tempDir();
    writeSkill(root, 'a');
    writeSkill(root, 'b');
    writeSkill(root, 'c');
    const registry = open(root);
    const gone = join(root, 'a', 'SKILL.md');
    rmSync(gone);
    expect(names(registry.refresh([gone])).removed).toEqual(['a']);
    const linked = join(root, 'b', 'SKILL.md');
    const elsewhere = join(tempDir(), 'SKILL.md');
    writeFileSync(elsewhere, skillText('name: b\ndescription: Linked.'));
    rmSync(linked);
    symlinkSync(elsewhere, linked);
    registry.refresh([linked]);
    expect(registry.resolve('b')?.status).not.toBe('active');
    const lower = join(root, 'c', 'skill.md');
    writeFileSync(lower, skillText('name: c\ndescription: Lower case.'));
    edit(root, 'c', 'Upper case.');
    // Named only by the other spelling: the edit of SKILL.md is still seen.
    registry.refresh([lower]);
    expect(registry.resolve('c')?.metadata?.description).toBe('Upper case.');
  });

  it('checks everything for a root, a path under no source, or a registry opened unchecked', () => {
    const root = tempDir();
    writeSkill(root, 'x');
    writeSkill(root, 'y');
    const registry = open(root);
    edit(root, 'y', 'Edited.');
    expect(names(registry.refresh([root])).changed).toEqual(['y']);
    edit(root, 'x', 'Edited too.');
    expect(names(registry.refresh([join(tempDir(), 'elsewhere')])).changed).toEqual(['x']);

    const data = new Map<string, string>();
    const cache = {
      load: (key: string) => data.get(key),
      save: (k: string, v: string) => void data.set(k, v),
    };
    open(root, { cache });
    edit(root, 'x', 'While no one looked.');
    edit(root, 'y', 'Also while no one looked.');
    const quick = open(root, { cache, indexFirst: true });
    // Opened from the index, nothing checked yet: naming one file still checks every one.
    const changes = quick.refresh([join(root, 'x', 'SKILL.md')]);
    expect(names(changes).changed.sort()).toEqual(['x', 'y']);
  });

  it('the watcher hands refresh the paths of a burst, and a root after an overflow', () => {
    const root = tempDir();
    for (let index = 0; index < 3; index += 1) writeSkill(root, `w${index}`);
    const registry = open(root);
    let fire: (() => void) | undefined;
    let emit: ((path: string) => void) | undefined;
    const events: RegistryChanges[] = [];
    registry.watch(
      (_roots, onChange) => {
        emit = onChange;
        return { close: async () => {} };
      },
      (changes) => events.push(changes),
      { setTimer: (callback) => (fire = callback), clearTimer: () => (fire = undefined) },
    );
    const file = edit(root, 'w1', 'Watched.');
    edit(root, 'w2', 'Unreported.');
    emit?.(file);
    emit?.(file);
    fire?.();
    expect(events.map(names)).toEqual([{ added: [], removed: [], changed: ['w1'] }]);
    expect(registry.stats.read).toBe(1);
    // Past the most paths a burst names, everything is checked.
    mkdirSync(join(root, 'w0', 'scratch'));
    for (let index = 0; index < 600; index += 1) emit?.(join(root, 'w0', 'scratch', `f${index}`));
    fire?.();
    expect(events.map(names)[1]).toEqual({ added: [], removed: [], changed: ['w2'] });
  });
});
