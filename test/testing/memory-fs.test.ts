import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadWithinOptions, SkillFileSystem } from '../../src/deps.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { createMemoryFileSystem, type MemoryEntry } from '../../src/testing/index.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * One tree, built twice: on disk (links and a FIFO made at test time) and in memory at the same
 * absolute path, so that every answer of the two file systems can be compared as is.
 */
function twinTrees() {
  const root = tempDir('skillhost-memory-fs-');
  const files: Record<string, string> = {
    'skill/SKILL.md': 'hello',
    'skill/references/a.md': 'A',
    'skill/references/big.md': 'x'.repeat(100),
    'outside/secret.txt': 'TOP SECRET',
  };
  const links: Record<string, string> = {
    'skill/link.md': 'references/a.md',
    'skill/references/up.md': '../SKILL.md',
    'skill/escape.md': '../outside/secret.txt',
    'skill/abs-escape.md': join(root, 'outside/secret.txt'),
    'skill/abs-inside.md': join(root, 'skill/references/a.md'),
    'skill/broken.md': 'nowhere.md',
    'skill/loop-a.md': 'loop-b.md',
    'skill/loop-b.md': 'loop-a.md',
    'skill/dirlink': 'references',
    'skill/outdir': '../outside',
  };
  writeTree(root, { ...files, 'skill/empty/.keep': '' });
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(root, path));
  execFileSync('mkfifo', [join(root, 'skill/fifo')]);
  const entries: Record<string, MemoryEntry> = {
    ...files,
    'skill/empty/.keep': '',
    'skill/fifo': { kind: 'fifo' },
  };
  for (const [path, target] of Object.entries(links)) entries[path] = { kind: 'symlink', target };
  return {
    root,
    disk: createNodeFileSystem(),
    memory: createMemoryFileSystem(entries, { root }),
  };
}

/** A read's answer without what only a real disk has (inode, times). */
function readAnswer(fs: SkillFileSystem, root: string, path: string, options: ReadWithinOptions) {
  const result = fs.readFileWithin(root, path, options);
  if (!result.ok) return result;
  return {
    ok: true,
    text: new TextDecoder().decode(result.bytes),
    partial: result.partial,
    kind: result.status.kind,
    size: result.status.size,
  };
}

describe('createMemoryFileSystem answers as the node file system does', () => {
  const paths = [
    '',
    'SKILL.md',
    'references',
    'references/a.md',
    'references/big.md',
    'references/up.md',
    'link.md',
    'escape.md',
    'abs-escape.md',
    'abs-inside.md',
    'broken.md',
    'loop-a.md',
    'dirlink',
    'dirlink/a.md',
    'dirlink/../SKILL.md',
    'outdir',
    'outdir/secret.txt',
    'fifo',
    'empty',
    'missing.md',
    'references/missing.md',
    'SKILL.md/x',
  ];

  it('reads within a root: every problem, every size cap', () => {
    const { root, disk, memory } = twinTrees();
    const skill = join(root, 'skill');
    const optionSets: ReadWithinOptions[] = [
      { maxBytes: 50 },
      { maxBytes: 50, allowPartial: true },
      { maxBytes: 100 },
      { maxBytes: 1, knownKind: 'fifo' },
      { maxBytes: 0 },
    ];
    for (const path of paths) {
      for (const options of optionSets) {
        expect(
          readAnswer(memory, skill, path, options),
          `${path} ${JSON.stringify(options)}`,
        ).toEqual(readAnswer(disk, skill, path, options));
      }
    }
    expect(memory.readFileWithin(skill, 'SKILL.md/x', { maxBytes: 10 })).toMatchObject({
      problem: 'missing',
    });
    for (const missingRoot of [join(root, 'nope'), join(root, 'skill/SKILL.md')]) {
      expect(memory.readFileWithin(missingRoot, 'SKILL.md', { maxBytes: 10 })).toEqual(
        disk.readFileWithin(missingRoot, 'SKILL.md', { maxBytes: 10 }),
      );
    }
  });

  it('lists folders with entry kinds, and refuses what is not a listable folder', () => {
    const { root, disk, memory } = twinTrees();
    const sorted = (fs: SkillFileSystem, path: string) => {
      const result = fs.listDirectory(path);
      return result.ok ? [...result.entries].sort((a, b) => a.name.localeCompare(b.name)) : result;
    };
    for (const path of ['', ...paths]) {
      const absolute = join(root, 'skill', path);
      expect(sorted(memory, absolute), path).toEqual(sorted(disk, absolute));
    }
    expect(sorted(memory, root)).toEqual(sorted(disk, root));
  });

  it('tells status with and without following a final link, and real paths', () => {
    const { root, disk, memory } = twinTrees();
    const summary = (fs: SkillFileSystem, path: string, follow: boolean) => {
      const status = fs.status(path, follow);
      if (status === undefined) return undefined;
      return status.kind === 'directory'
        ? { kind: status.kind }
        : { kind: status.kind, size: status.size, links: status.links };
    };
    for (const path of paths) {
      const absolute = join(root, 'skill', path);
      for (const follow of [true, false])
        expect(summary(memory, absolute, follow), `${path} ${follow}`).toEqual(
          summary(disk, absolute, follow),
        );
      expect(memory.realPath(absolute), path).toBe(disk.realPath(absolute));
    }
    const batch = [join(root, 'skill/SKILL.md'), join(root, 'skill/nope')];
    expect(memory.statusMany(batch, true).map((status) => status?.kind)).toEqual([
      'file',
      undefined,
    ]);
  });
});

describe('createMemoryFileSystem as a tree that tests change', () => {
  it('puts relative keys under the root, absolute ones where they say', () => {
    const fs = createMemoryFileSystem(
      { 'a/b.md': 'B', '/elsewhere/c.md': 'C' },
      { root: '/skills' },
    );
    expect(fs.realPath('/skills/a/b.md')).toBe('/skills/a/b.md');
    expect(fs.status('/elsewhere/c.md', false)?.size).toBe(1);
    expect(fs.status('/skills/elsewhere', false)).toBeUndefined();
    const top = createMemoryFileSystem({ 'x.md': 'X' });
    expect(top.listDirectory('/')).toEqual({ ok: true, entries: [{ name: 'x.md', kind: 'file' }] });
  });

  it('writes, replaces and removes entries, and a change shows in the file identity', () => {
    const fs = createMemoryFileSystem({ '/s/a.md': 'one' });
    const before = fs.status('/s/a.md', false);
    fs.write('/s/a.md', 'three');
    const after = fs.status('/s/a.md', false);
    expect(after?.inode).toBe(before?.inode);
    expect(after?.size).toBe(5);
    expect(after?.ctimeMs).toBeGreaterThan(before?.ctimeMs ?? Number.POSITIVE_INFINITY);
    const folder = fs.status('/s', false);
    fs.write('/s/deep/new/b.md', new Uint8Array([1, 2]));
    // A new entry changes its folder's identity, as the registry's refresh relies on.
    expect(fs.status('/s', false)?.ctimeMs).toBeGreaterThan(
      folder?.ctimeMs ?? Number.POSITIVE_INFINITY,
    );
    expect(fs.listDirectory('/s/deep')).toEqual({
      ok: true,
      entries: [{ name: 'new', kind: 'directory' }],
    });
    fs.remove('/s/deep');
    fs.remove('/s/never-there');
    expect(fs.status('/s/deep/new/b.md', false)).toBeUndefined();
    expect(() => fs.write('/s/a.md/inside', 'x')).toThrow('a parent is not a folder');
  });

  it('refuses to read or list what has no read permission, and counts hard links', () => {
    const fs = createMemoryFileSystem({
      '/s/secret.md': { kind: 'file', content: 'no', unreadable: true },
      '/s/closed': { kind: 'directory', unreadable: true },
      '/s/linked.sh': { kind: 'file', content: 'echo\n', links: 2 },
    });
    expect(fs.readFileWithin('/s', 'secret.md', { maxBytes: 10 })).toEqual({
      ok: false,
      problem: 'unreadable',
      message: 'Permission denied',
    });
    expect(fs.listDirectory('/s/closed')).toMatchObject({ ok: false, problem: 'unreadable' });
    expect(fs.status('/s/linked.sh', false)?.links).toBe(2);
  });

  it('counts the work asked of it, and reads at most maxBytes + 1 bytes of a file', () => {
    const fs = createMemoryFileSystem({ '/s/big.md': 'x'.repeat(10_000), '/s/small.md': 'abc' });
    fs.listDirectory('/s');
    fs.status('/s/big.md', true);
    fs.realPath('/s/big.md');
    expect(fs.readFileWithin('/s', 'big.md', { maxBytes: 100 })).toMatchObject({
      problem: 'too-large',
    });
    expect(fs.readFileWithin('/s', 'small.md', { maxBytes: 100 }).ok).toBe(true);
    expect(fs.stats).toEqual({
      listings: 1,
      statuses: 1,
      realPaths: 1,
      reads: 2,
      bytesRead: 101 + 3,
    });
  });

  it('hands out copies: changing the bytes read changes nothing', () => {
    const fs = createMemoryFileSystem({ '/s/a.md': 'abc' });
    const first = fs.readFileWithin('/s', 'a.md', { maxBytes: 10 });
    if (first.ok) first.bytes.fill(0);
    const again = fs.readFileWithin('/s', 'a.md', { maxBytes: 10 });
    expect(again.ok && new TextDecoder().decode(again.bytes)).toBe('abc');
  });
});
