import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { createChokidarWatcher } from '../../src/node/watch.js';
import type { RegistryChanges } from '../../src/registry/registry.js';
import { SkillRegistry } from '../../src/registry/registry.js';
import { skillText, tempDir, writeSkill } from '../helpers/temp.js';

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('SkillRegistry.watch with chokidar', () => {
  it('emits added, changed and removed skills', async () => {
    const root = tempDir();
    writeSkill(root, 'first');
    const registry = SkillRegistry.open({
      fs: createNodeFileSystem(),
      sources: [{ id: 'user', kind: 'user', root, trust: 'trusted', enabled: true }],
    });
    const events: RegistryChanges[] = [];
    const handle = registry.watch(
      await createChokidarWatcher(),
      (changes) => events.push(changes),
      { debounceMs: 50 },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeSkill(root, 'second');
      await until(
        () => events.some((e) => e.added.some((entry) => entry.name === 'second')),
        'the added skill',
      );
      writeFileSync(
        join(root, 'first', 'SKILL.md'),
        skillText('name: first\ndescription: Edited.'),
      );
      await until(
        () => events.some((e) => e.changed.some((entry) => entry.name === 'first')),
        'the changed skill',
      );
      rmSync(join(root, 'second'), { recursive: true });
      await until(
        () => events.some((e) => e.removed.some((entry) => entry.name === 'second')),
        'the removed skill',
      );
      expect(registry.resolve('first')?.metadata?.description).toBe('Edited.');
    } finally {
      await handle.close();
    }
  });

  it('reports a skill added while chokidar made its first scan (which gives no event)', async () => {
    const root = tempDir();
    writeSkill(root, 'first');
    const registry = SkillRegistry.open({
      fs: createNodeFileSystem(),
      sources: [{ id: 'user', kind: 'user', root, trust: 'trusted', enabled: true }],
    });
    const events: RegistryChanges[] = [];
    const handle = registry.watch(
      await createChokidarWatcher(),
      (changes) => events.push(changes),
      { debounceMs: 50 },
    );
    try {
      // Written before chokidar's first scan has read the folder: it finds the skill as it was.
      writeSkill(root, 'early');
      await until(
        () => events.some((e) => e.added.some((entry) => entry.name === 'early')),
        'the skill added during the first scan',
      );
      expect(registry.resolve('early')).toBeDefined();
    } finally {
      await handle.close();
    }
  });

  it('calls the listener only after changes settle, once per burst', () => {
    const root = tempDir();
    writeSkill(root, 'one');
    const registry = SkillRegistry.open({
      fs: createNodeFileSystem(),
      sources: [{ id: 'user', kind: 'user', root, trust: 'trusted', enabled: true }],
    });
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
    writeSkill(root, 'two');
    writeSkill(root, 'three');
    emit?.(join(root, 'two'));
    emit?.(join(root, 'three'));
    expect(events).toEqual([]);
    fire?.();
    expect(events).toHaveLength(1);
    expect(events[0]?.added.map((entry) => entry.name).sort()).toEqual(['three', 'two']);
  });
});
