import { execFileSync } from 'node:child_process';
import { constants, linkSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { tempDir } from '../helpers/temp.js';

/** The work the reader does, counted on node:fs itself: files opened (with flags), reads, bytes. */
const work = vi.hoisted(() => ({
  opens: [] as Array<{ path: string; flags: number }>,
  reads: 0,
  bytes: 0,
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = (path: unknown, flags: unknown, ...rest: unknown[]) => {
    work.opens.push({ path: String(path), flags: Number(flags) });
    return (fs.openSync as (...args: unknown[]) => number)(path, flags, ...rest);
  };
  const readSync = (...args: unknown[]) => {
    const count = (fs.readSync as (...args: unknown[]) => number)(...args);
    work.reads += 1;
    work.bytes += count;
    return count;
  };
  return { ...fs, openSync, readSync, default: { ...fs, openSync, readSync } };
});

beforeEach(() => {
  work.opens.length = 0;
  work.reads = 0;
  work.bytes = 0;
});

const fs = createNodeFileSystem();
const read = (root: string, path: string, maxBytes = 1024) =>
  fs.readFileWithin(root, path, { maxBytes });

describe('readFileWithin: open, then verify what was opened', () => {
  it('reads a regular file', () => {
    const root = tempDir();
    writeFileSync(join(root, 'SKILL.md'), 'hello');
    const result = read(root, 'SKILL.md');
    expect(result.ok && Buffer.from(result.bytes).toString()).toBe('hello');
  });

  it('refuses a FIFO at once, without blocking on it', () => {
    const root = tempDir();
    const fifo = join(root, 'SKILL.md');
    execFileSync('mkfifo', [fifo]);
    expect(read(root, 'SKILL.md')).toMatchObject({
      ok: false,
      problem: 'not-regular',
      kind: 'fifo',
    });
    // Opened without waiting for a writer (O_NONBLOCK) nor following a link, and refused on
    // what the descriptor is: not one read from the pipe.
    expect(work.opens.map((open) => open.path)).toEqual([fifo]);
    const flags = work.opens[0]?.flags ?? 0;
    expect(flags & constants.O_NONBLOCK).toBe(constants.O_NONBLOCK);
    expect(flags & constants.O_NOFOLLOW).toBe(constants.O_NOFOLLOW);
    expect(work.reads).toBe(0);
  });

  it('refuses a directory', () => {
    const root = tempDir();
    mkdirSync(join(root, 'SKILL.md'));
    expect(read(root, 'SKILL.md')).toMatchObject({
      ok: false,
      problem: 'not-regular',
      kind: 'directory',
    });
  });

  it('refuses a device', () => {
    expect(read('/dev', 'null')).toMatchObject({
      ok: false,
      problem: 'not-regular',
      kind: 'device',
    });
    expect(read('/dev', 'zero')).toMatchObject({ ok: false, problem: 'not-regular' });
  });

  it('follows a symlink whose target stays inside the root', () => {
    const root = tempDir();
    writeFileSync(join(root, 'real.md'), 'inside');
    symlinkSync('real.md', join(root, 'SKILL.md'));
    const result = read(root, 'SKILL.md');
    expect(result.ok && Buffer.from(result.bytes).toString()).toBe('inside');
  });

  it('refuses a symlink that leads out of the root, without reading the target', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret'), 'TOP SECRET');
    const root = tempDir();
    symlinkSync(join(outside, 'secret'), join(root, 'SKILL.md'));
    const result = read(root, 'SKILL.md');
    expect(result).toMatchObject({ ok: false, problem: 'symlink-escape' });
    expect(JSON.stringify(result)).not.toContain('TOP SECRET');
    symlinkSync('/dev/zero', join(root, 'zero.md'));
    expect(read(root, 'zero.md')).toMatchObject({ ok: false, problem: 'symlink-escape' });
  });

  it('refuses a symlinked directory component that leads out of the root', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'x.md'), 'outside');
    const root = tempDir();
    symlinkSync(outside, join(root, 'references'));
    expect(read(root, 'references/x.md')).toMatchObject({ ok: false, problem: 'symlink-escape' });
  });

  it('reports broken and looping symlinks', () => {
    const root = tempDir();
    symlinkSync('nowhere.md', join(root, 'SKILL.md'));
    expect(read(root, 'SKILL.md')).toMatchObject({ ok: false, problem: 'symlink-broken' });
    symlinkSync('b.md', join(root, 'a.md'));
    symlinkSync('a.md', join(root, 'b.md'));
    expect(read(root, 'a.md')).toMatchObject({ ok: false, problem: 'symlink-broken' });
  });

  it('reports a missing file', () => {
    expect(read(tempDir(), 'SKILL.md')).toMatchObject({ ok: false, problem: 'missing' });
  });

  it('enforces the size cap while reading, even for a huge sparse file', () => {
    const root = tempDir();
    writeFileSync(join(root, 'SKILL.md'), '');
    truncateSync(join(root, 'SKILL.md'), 50 * 1024 * 1024);
    expect(read(root, 'SKILL.md', 256 * 1024)).toMatchObject({ ok: false, problem: 'too-large' });
    // Of the 50 MiB, exactly the cap and the one byte that shows there is more were read.
    expect(work.bytes).toBe(256 * 1024 + 1);
    writeFileSync(join(root, 'exact.md'), 'x'.repeat(1024));
    expect(read(root, 'exact.md', 1024).ok).toBe(true);
    writeFileSync(join(root, 'over.md'), 'x'.repeat(1025));
    expect(read(root, 'over.md', 1024)).toMatchObject({ ok: false, problem: 'too-large' });
  });

  it('caps files whose size the status does not tell (procfs)', () => {
    const result = fs.readFileWithin('/proc/self', 'maps', { maxBytes: 64 });
    expect(result).toMatchObject({ ok: false, problem: 'too-large' });
    expect(work.bytes).toBeLessThanOrEqual(65);
    const partial = fs.readFileWithin('/proc/self', 'maps', { maxBytes: 64, allowPartial: true });
    expect(partial.ok && partial.bytes.length).toBe(64);
  });

  it('reports the link count so callers can refuse hard links', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.md'), 'a');
    linkSync(join(root, 'a.md'), join(root, 'b.md'));
    const result = read(root, 'b.md');
    expect(result.ok && result.status.links).toBe(2);
  });

  it('refuses without opening when the listing already says it is not a file', () => {
    const root = tempDir();
    expect(fs.readFileWithin(root, 'SKILL.md', { maxBytes: 10, knownKind: 'fifo' })).toMatchObject({
      ok: false,
      problem: 'not-regular',
    });
  });
});

describe('listDirectory and status', () => {
  it('lists entries with their kinds, links not followed', () => {
    const root = tempDir();
    mkdirSync(join(root, 'dir'));
    writeFileSync(join(root, 'file'), '');
    symlinkSync('dir', join(root, 'link'));
    const listing = fs.listDirectory(root);
    expect(listing.ok && [...listing.entries].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [
        { name: 'dir', kind: 'directory' },
        { name: 'file', kind: 'file' },
        { name: 'link', kind: 'symlink' },
      ],
    );
    expect(fs.listDirectory(join(root, 'missing'))).toMatchObject({
      ok: false,
      problem: 'missing',
    });
    expect(fs.listDirectory(join(root, 'file'))).toMatchObject({
      ok: false,
      problem: 'not-directory',
    });
    expect(fs.status(join(root, 'link'), true)?.kind).toBe('directory');
    expect(fs.status(join(root, 'link'), false)?.kind).toBe('symlink');
  });
});
