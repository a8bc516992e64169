import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheStore, DirectoryEntry } from '../../src/deps.js';
import { createDirectoryCacheStore } from '../../src/node/cache-store.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { type SkillRecord, type SourceScan, scanSource } from '../../src/registry/discover.js';
import { decodeScan, encodeScan, indexKey } from '../../src/registry/index-cache.js';
import { SkillRegistry } from '../../src/registry/registry.js';
import type { SkillSource } from '../../src/registry/sources.js';
import { StringTable } from '../../src/registry/strings.js';
import { skillText, tempDir, writeSkill } from '../helpers/temp.js';

const fs = createNodeFileSystem();

function source(root: string): SkillSource {
  return { id: 'explicit', kind: 'explicit', root, trust: 'trusted', enabled: true };
}

function memoryCache(): CacheStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, load: (key) => data.get(key), save: (key, text) => data.set(key, text) };
}

/** A tree with what the index must keep: rich fields, a broken skill, a nested folder, a link. */
function richTree(): string {
  const root = tempDir();
  const rich = (name: string, extra = '') =>
    skillText(
      `name: ${name}\ndescription: >\n  Does ${name} things.\n  Use when asked.\nlicense: Apache-2.0\ncompatibility: Requires git\nallowed-tools: Read Bash(git:*)\nmetadata:\n  author: someone\n  version: "1.0"${extra}`,
    );
  mkdirSync(join(root, 'alpha'));
  writeFileSync(join(root, 'alpha', 'SKILL.md'), rich('alpha'));
  mkdirSync(join(root, 'beta'));
  writeFileSync(join(root, 'beta', 'SKILL.md'), rich('beta'));
  mkdirSync(join(root, 'claims'));
  writeFileSync(join(root, 'claims', 'SKILL.md'), rich('other-name', '\n  extra: "x"'));
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', 'SKILL.md'), '---\nname: broken\n---\nno description\n');
  mkdirSync(join(root, 'group', 'inner'), { recursive: true });
  writeFileSync(join(root, 'group', 'inner', 'SKILL.md'), rich('inner'));
  const elsewhere = tempDir();
  writeSkill(elsewhere, 'linked');
  symlinkSync(join(elsewhere, 'linked'), join(root, 'linked'));
  return root;
}

function roundTrip(scan: SourceScan, key = 'k'): SourceScan | undefined {
  return decodeScan(encodeScan(scan, key), scan.source, key, new StringTable());
}

describe('the index cache', () => {
  it('decodes what it encoded: every record, identity, metadata map and diagnostic', () => {
    const root = richTree();
    const scan = scanSource(fs, source(root), { followSymlinks: true });
    expect(scan.skills.size).toBe(6);
    const decoded = roundTrip(scan);
    expect(decoded).toBeDefined();
    expect([...(decoded?.skills.keys() ?? [])]).toEqual([...scan.skills.keys()]);
    for (const [directory, record] of scan.skills) {
      const again = decoded?.skills.get(directory);
      expect({ ...again, metadata: again?.metadata && { ...again.metadata } }).toEqual({
        ...record,
        metadata: record.metadata && { ...record.metadata },
      });
      if (record.metadata !== undefined)
        expect(Object.getPrototypeOf(again?.metadata?.metadata)).toBe(
          Object.getPrototypeOf(record.metadata.metadata),
        );
    }
    expect([...(decoded?.directories.values() ?? [])]).toEqual([...scan.directories.values()]);
    expect(decoded?.skills.get(join(root, 'broken'))?.metadata).toBeUndefined();
    expect(decoded?.skills.get(join(root, 'broken'))?.diagnostics.length).toBeGreaterThan(0);
    expect(decoded?.skills.get(join(root, 'claims'))?.metadata?.name).toBe('other-name');
    expect(decoded?.skills.get(join(root, 'linked'))?.realDirectory).not.toBe(join(root, 'linked'));
    // Equal metadata maps are one object after decoding, as after reading.
    expect(decoded?.skills.get(join(root, 'alpha'))?.metadata?.metadata).toBe(
      decoded?.skills.get(join(root, 'beta'))?.metadata?.metadata,
    );
  });

  it('keeps paths relative to the root, and a path outside it as it is', () => {
    const root = richTree();
    const scan = scanSource(fs, source(root));
    const text = encodeScan(scan, 'k');
    const alpha = text.split('\n').find((line) => line.startsWith('["s","alpha"'));
    expect(alpha).toBeDefined();
    expect(alpha).not.toContain(root);
    const outside: SourceScan = {
      ...scan,
      skills: new Map([
        ...scan.skills,
        [
          '/somewhere/else',
          {
            ...(scan.skills.get(join(root, 'alpha')) as SkillRecord),
            directory: '/somewhere/else',
            realDirectory: '/somewhere/else',
          },
        ],
      ]),
    };
    expect(roundTrip(outside)?.skills.get('/somewhere/else')?.directory).toBe('/somewhere/else');
  });

  it('asks to read ahead only when every skill file will be read: not from an earlier scan', () => {
    const root = richTree();
    const asked: string[][] = [];
    const hinting = {
      ...fs,
      readFileWithin: fs.readFileWithin,
      readAhead: (_directory: string, entries: readonly DirectoryEntry[]) => {
        asked.push(entries.map((entry) => entry.name));
        return undefined;
      },
    };
    const first = scanSource(hinting, source(root));
    // The root's folders, then the folder below it that holds a skill.
    expect(asked).toEqual([['alpha', 'beta', 'broken', 'claims', 'group', 'linked'], ['inner']]);
    asked.length = 0;
    scanSource(hinting, source(root), {}, { previous: first });
    expect(asked).toEqual([]);
  });

  it('ignores an index of another version, of another key or root, or with a bad place', () => {
    const root = richTree();
    const scan = scanSource(fs, source(root));
    const text = encodeScan(scan, 'k');
    const strings = new StringTable();
    expect(decodeScan(text, scan.source, 'other', strings)).toBeUndefined();
    expect(decodeScan(text, source(`${root}-x`), 'k', strings)).toBeUndefined();
    const [header, ...lines] = text.split('\n');
    const older = JSON.stringify({ ...JSON.parse(header as string), format: 'skillhost-index/3' });
    expect(decodeScan([older, ...lines].join('\n'), scan.source, 'k', strings)).toBeUndefined();
    // A place that names no shared string, map or kind, or a property of a list.
    const skill = lines.findIndex((line) => line.startsWith('["s"'));
    for (const [field, value] of [
      [3, 99],
      [15, 'length'],
      [15, 99],
      [15, 1.5],
      [12, -1],
    ] as const) {
      const item = JSON.parse(lines[skill] as string);
      item[field] = value;
      const forged = [...lines];
      forged[skill] = JSON.stringify(item);
      expect(decodeScan([header, ...forged].join('\n'), scan.source, 'k', strings)).toBeUndefined();
    }
    const directory = lines.findIndex((line) => line.startsWith('["d"'));
    const item = JSON.parse(lines[directory] as string);
    item[7] = ['alpha', 'length'];
    const forged = [...lines];
    forged[directory] = JSON.stringify(item);
    expect(decodeScan([header, ...forged].join('\n'), scan.source, 'k', strings)).toBeUndefined();
  });

  it('rebuilds cleanly over an index of the version before, and saves the new version', () => {
    const root = tempDir();
    for (let index = 0; index < 3; index += 1) writeSkill(root, `s${index}`);
    const sources = [source(root)];
    const cache = memoryCache();
    const key = indexKey(sources[0] as SkillSource, {}, 'dev');
    // What the version before wrote, under this version's key: read as nothing.
    cache.data.set(
      key,
      [
        JSON.stringify({ format: 'skillhost-index/3', key, root }),
        JSON.stringify(['s', join(root, 's0'), null, 'SKILL.md', [1, 2, 3, 4, 5], 1, null, []]),
      ].join('\n'),
    );
    const opened = SkillRegistry.open({ fs, sources, cache });
    expect(opened.stats).toMatchObject({ read: 3, cachedSources: 0 });
    expect(opened.active().map((entry) => entry.name)).toEqual(['s0', 's1', 's2']);
    expect(JSON.parse((cache.data.get(key) as string).split('\n')[0] as string).format).toBe(
      'skillhost-index/4',
    );
    const warm = SkillRegistry.open({ fs, sources, cache });
    expect(warm.stats).toMatchObject({ read: 0, reused: 3, cachedSources: 1 });
    expect(warm.entries).toEqual(opened.entries);
  });

  it('reads an index line by line from a store that can, never as one string', () => {
    const root = richTree();
    const sources = [source(root)];
    const store = createDirectoryCacheStore(join(tempDir(), 'cache'));
    const first = SkillRegistry.open({ fs, sources, cache: store });
    let lines = 0;
    const lineByLine: CacheStore = {
      load: () => {
        throw new Error('the whole entry was asked for');
      },
      save: () => {
        throw new Error('the whole entry was written');
      },
      saveLines: (key, lines) => store.saveLines?.(key, lines),
      loadLines: (key) => {
        const found = store.loadLines?.(key);
        if (found === undefined) return undefined;
        return (function* () {
          for (const line of found) {
            lines += 1;
            yield line;
          }
        })();
      },
    };
    const warm = SkillRegistry.open({ fs, sources, cache: lineByLine });
    expect(warm.stats).toMatchObject({ read: 0, cachedSources: 1 });
    expect(lines).toBeGreaterThan(first.entries.length);
    expect(warm.entries).toEqual(first.entries);
    // The same scan from its lines as from its text.
    const scan = scanSource(fs, source(root), { followSymlinks: true });
    const text = encodeScan(scan, 'k');
    expect(decodeScan(text.split('\n'), scan.source, 'k', new StringTable())).toEqual(
      decodeScan(text, scan.source, 'k', new StringTable()),
    );
    expect(decodeScan([], scan.source, 'k', new StringTable())).toBeUndefined();
    // Saved line by line after a change, and read back from the lines.
    writeSkill(root, 'delta');
    const changed = SkillRegistry.open({ fs, sources, cache: lineByLine });
    expect(changed.stats).toMatchObject({ read: 1 });
    const again = SkillRegistry.open({ fs, sources, cache: lineByLine });
    expect(again.stats).toMatchObject({ read: 0, cachedSources: 1 });
    expect(again.entries).toEqual(changed.entries);
  });

  it('sees an edited, a removed and an added skill on a start from the index', () => {
    const root = richTree();
    const sources = [source(root)];
    const cache = memoryCache();
    const first = SkillRegistry.open({ fs, sources, cache });
    writeFileSync(
      join(root, 'alpha', 'SKILL.md'),
      skillText('name: alpha\ndescription: Edited text.'),
    );
    writeSkill(root, 'gamma');
    rmSync(join(root, 'beta'), { recursive: true });
    const warm = SkillRegistry.open({ fs, sources, cache });
    expect(warm.stats.cachedSources).toBe(1);
    expect(warm.resolve('alpha')?.metadata?.description).toBe('Edited text.');
    expect(warm.resolve('beta')).toBeUndefined();
    expect(warm.resolve('gamma')?.status).toBe('active');
    expect(warm.entries.length).toBe(first.entries.length);
  });
});
