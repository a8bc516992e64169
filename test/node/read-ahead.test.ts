import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ReadResult, ReadWithinOptions, SkillFileSystem } from '../../src/deps.js';
import type * as ChecksModule from '../../src/node/checks.js';
import type * as FsModule from '../../src/node/fs.js';
import type * as ReadAheadModule from '../../src/node/read-ahead.js';
import { bin, root } from '../helpers/built.js';
import { tempDir } from '../helpers/temp.js';

// The helper thread imports its program from the built files (a worker cannot load TypeScript):
// these tests use the built library, which `npm test` builds first.
const built = (path: string) => pathToFileURL(join(root, 'dist', path)).href;
const { createNodeFileSystem } = (await import(built('node/fs.js'))) as typeof FsModule;
const readAhead = (await import(built('node/read-ahead.js'))) as typeof ReadAheadModule;
const { validateSkillPaths } = (await import(built('node/checks.js'))) as typeof ChecksModule;

const HEAD: ReadWithinOptions = { maxBytes: 72 * 1024, allowPartial: true };

/**
 * Skill folders with every kind of read: plain files, one larger than a slot, one larger than
 * the head, a link inside the folder, a link out of it, a FIFO, a folder named SKILL.md, a
 * lowercase skill.md, a folder with no skill file, a link to a folder.
 */
function tree(count: number): { readonly base: string; readonly names: string[] } {
  const base = join(tempDir('skillhost-read-ahead-'), 'skills');
  mkdirSync(base);
  const outside = join(base, '..', 'outside.md');
  writeFileSync(outside, '---\nname: outside\ndescription: Outside.\n---\n');
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = `skill-${String(index).padStart(4, '0')}`;
    names.push(name);
    const folder = join(base, name);
    mkdirSync(folder);
    const file = join(folder, 'SKILL.md');
    const text = (body: string) =>
      `---\nname: ${name}\ndescription: Skill ${index}. Use it in tests.\n---\n${body}`;
    switch (index % 10) {
      case 1:
        writeFileSync(file, text('x'.repeat(readAhead.SLOT_BYTES + 10)));
        break;
      case 2:
        writeFileSync(file, text('y'.repeat(80 * 1024)));
        break;
      case 3:
        writeFileSync(join(folder, 'real.md'), text('Linked.\n'));
        symlinkSync('real.md', file);
        break;
      case 4:
        symlinkSync(outside, file);
        break;
      case 5:
        spawnSync('mkfifo', [file]);
        break;
      case 6:
        mkdirSync(file);
        break;
      case 7:
        writeFileSync(join(folder, 'skill.md'), text('Lower case.\n'));
        break;
      case 8:
        break;
      default:
        writeFileSync(file, text(`Body ${index}\n`.repeat(1 + (index % 40))));
    }
  }
  mkdirSync(join(base, 'zz-target'));
  writeFileSync(
    join(base, 'zz-target', 'SKILL.md'),
    '---\nname: zz-target\ndescription: T.\n---\n',
  );
  symlinkSync(join(base, 'zz-target'), join(base, 'zz-link'));
  names.push('zz-link', 'zz-target');
  return { base, names };
}

/** A read result as plain data: its bytes copied (they live in a buffer the next read reuses). */
function plain(result: ReadResult) {
  return result.ok ? { ...result, bytes: Buffer.from(result.bytes).toString('latin1') } : result;
}

async function settled(ahead: ReadAheadModule.ReadAhead, count: number): Promise<void> {
  for (let tries = 0; tries < 500 && ahead.settled() < count; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('reading skill files ahead on a helper thread', () => {
  it('gives every read what a read here gives, whoever read it', async () => {
    const { base, names } = tree(300);
    const direct = createNodeFileSystem({ readAheadFrom: Number.POSITIVE_INFINITY });
    // A small head makes partial reads the helper hands over.
    for (const options of [HEAD, { maxBytes: 256 * 1024 }, { maxBytes: 200, allowPartial: true }]) {
      const ahead = readAhead.startReadAhead(base, names, 'SKILL.md', options);
      expect(ahead).toBeDefined();
      if (ahead === undefined) return;
      // The helper fills its slots, then waits for the walk to take them.
      await settled(ahead, readAhead.SLOTS - 1);
      expect(ahead.settled()).toBeGreaterThanOrEqual(readAhead.SLOTS - 1);
      let early = 0;
      for (const [index, name] of names.entries()) {
        const path = join(base, name);
        const given = ahead.take(path, 'SKILL.md', options);
        const read = direct.readFileWithin(path, 'SKILL.md', options);
        if (given !== undefined) expect(plain(given), name).toEqual(plain(read));
        // What the helper had read before the walk began is handed over, whenever it fits a
        // slot and is no link; the rest (a failed read, a file larger than a slot, a link the
        // read here follows inside the folder) is read here. How much more it reads while the
        // walk goes on is a matter of timing.
        if (index < readAhead.SLOTS - 1) {
          const link = lstatSync(join(path, 'SKILL.md'), { throwIfNoEntry: false });
          const fits =
            read.ok && read.bytes.length <= readAhead.SLOT_BYTES && link?.isSymbolicLink() !== true;
          expect(given !== undefined, name).toBe(fits);
          if (fits) early += 1;
        }
      }
      // Two in ten of the tree are plain files that fit whatever the options.
      expect(early).toBeGreaterThan(readAhead.SLOTS / 8);
      expect(ahead.served).toBeGreaterThanOrEqual(early);
      expect(ahead.served).toBeLessThan(names.length);
      ahead.stop();
      expect(ahead.take(join(base, names[0] as string), 'SKILL.md', options)).toBeUndefined();
    }
  });

  it('hands over nothing it was not asked for: other options, files or folders, or a name passed over', async () => {
    const { base, names } = tree(100);
    const ahead = readAhead.startReadAhead(base, names, 'SKILL.md', HEAD);
    if (ahead === undefined) throw new Error('no helper');
    await settled(ahead, 50);
    const first = join(base, names[0] as string);
    expect(ahead.take(first, 'SKILL.md', { maxBytes: HEAD.maxBytes })).toBeUndefined();
    expect(ahead.take(first, 'README.md', HEAD)).toBeUndefined();
    expect(ahead.take(`${base}-other/${names[0]}`, 'SKILL.md', HEAD)).toBeUndefined();
    expect(ahead.take(join(base, 'not-a-name'), 'SKILL.md', HEAD)).toBeUndefined();
    // The walk passes over the first ten: the eleventh is still the helper's.
    const eleventh = join(base, names[10] as string);
    const given = ahead.take(eleventh, 'SKILL.md', HEAD);
    expect(given === undefined ? undefined : plain(given)).toEqual(
      plain(createNodeFileSystem().readFileWithin(eleventh, 'SKILL.md', HEAD)),
    );
    expect(ahead.served).toBe(1);
    // What was passed over is not handed over later.
    expect(ahead.take(first, 'SKILL.md', HEAD)).toBeUndefined();
    ahead.stop();
  });

  it('refuses a number of folders that is not one, with a coded error', () => {
    for (const readAheadFrom of [0, -1, 2.5, Number.NaN]) {
      expect(() => createNodeFileSystem({ readAheadFrom }), String(readAheadFrom)).toThrow(
        expect.objectContaining({
          code: 'USAGE',
          message: expect.stringContaining('readAheadFrom'),
        }),
      );
    }
    expect(createNodeFileSystem({ readAheadFrom: Number.POSITIVE_INFINITY }).readAhead).toBeTypeOf(
      'function',
    );
  });

  it('is asked for by the file system from a number of folders, one at a time', () => {
    const { base, names } = tree(20);
    const entries = names.map((name) => ({ name, kind: 'directory' as const }));
    const fs = createNodeFileSystem({ readAheadFrom: 20 });
    expect(fs.readAhead?.(base, entries.slice(0, 19), 'SKILL.md', HEAD)).toBeUndefined();
    const stop = fs.readAhead?.(base, entries, 'SKILL.md', HEAD);
    expect(stop).toBeTypeOf('function');
    // A walk inside the walk reads as it goes.
    expect(fs.readAhead?.(base, entries, 'SKILL.md', HEAD)).toBeUndefined();
    stop?.();
    expect(fs.readAhead?.(base, entries, 'SKILL.md', HEAD)).toBeTypeOf('function');
  });

  it('changes no verdict of a tree checked with it', () => {
    const { base } = tree(400);
    const check = (fs: SkillFileSystem) =>
      JSON.stringify(validateSkillPaths([base], { fs, mode: 'strict' }));
    const alone = check(createNodeFileSystem({ readAheadFrom: Number.POSITIVE_INFINITY }));
    expect(check(createNodeFileSystem({ readAheadFrom: 1 }))).toBe(alone);
    expect(JSON.parse(alone).summary.skills).toBeGreaterThan(300);
  });

  it('keeps the young generation small in a command line that asked for it', () => {
    // Making the helper's heap sets V8's growth factor back to 2 for the whole process: without
    // the helper's first statement, the main thread's young generation grows to 32 MB.
    const script = `
      const v8 = require('node:v8');
      v8.setFlagsFromString('--semi-space-growth-factor=1');
      globalThis[Symbol.for('skillhost.smallYoungGeneration')] = true;
      import(${JSON.stringify(built('node/read-ahead.js'))}).then(async (m) => {
        const names = Array.from({ length: 100 }, (_, i) => 'n' + i);
        const ahead = m.startReadAhead(${JSON.stringify(tempDir())}, names, 'SKILL.md', { maxBytes: 1024 });
        for (let i = 0; i < 500 && ahead.settled() < 63; i++) await new Promise((r) => setTimeout(r, 10));
        const keep = [];
        for (let i = 0; i < 400000; i++) keep.push({ a: 'x'.repeat(20) + i, b: [i] });
        const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
        console.log(ahead.settled(), young.space_size);
        ahead.stop();
      });`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const [count, size] = result.stdout.trim().split(' ').map(Number);
    expect(count, result.stderr).toBeGreaterThanOrEqual(63);
    expect(size).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('gives list the output of one thread, byte for byte (the built bin)', () => {
    const { base } = tree(300);
    const run = (threads: string) =>
      spawnSync(
        process.execPath,
        [bin, 'list', '--json', '--no-default-sources', '--skills', base, '--no-cache'],
        {
          cwd: root,
          encoding: 'utf8',
          env: {
            ...process.env,
            NO_COLOR: '1',
            SKILLHOST_THREADS: threads,
            SKILLHOST_HOME: tempDir(),
          },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
    const alone = run('1');
    expect(alone.status).toBe(0);
    expect(JSON.parse(alone.stdout).skills.length).toBeGreaterThan(200);
    expect(run('2').stdout).toBe(alone.stdout);
  });
});
