import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { smallInteger } from '../../src/node/stat-many.js';
import { tempDir } from '../helpers/temp.js';

describe('statuses', () => {
  it('keeps every number as it is when it makes a whole one a small integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), (value) => {
        const kept = smallInteger(value);
        if (Number.isNaN(value)) expect(kept).toBeNaN();
        else expect(kept).toBe(value === 0 ? 0 : value);
      }),
    );
    expect(smallInteger(2 ** 31)).toBe(2 ** 31);
    expect(smallInteger(-(2 ** 31))).toBe(-(2 ** 31));
    expect(smallInteger(1.5)).toBe(1.5);
  });

  it('gives the same status one path at a time and in a batch over the helper thread', () => {
    const root = tempDir();
    const paths: string[] = [];
    for (let index = 0; index < 2100; index += 1) {
      const path = join(root, `f${index}`);
      if (index % 700 === 0) mkdirSync(path);
      else writeFileSync(path, 'x'.repeat(index % 50));
      paths.push(path);
    }
    symlinkSync(join(root, 'f1'), join(root, 'link'));
    paths.push(join(root, 'link'), join(root, 'missing'));
    const fs = createNodeFileSystem();
    const batch = fs.statusMany?.(paths, false) ?? [];
    expect(batch).toEqual(paths.map((path) => fs.status(path, false)));
    const real = statSync(join(root, 'f7'));
    expect(batch[7]).toEqual({
      kind: 'file',
      size: 7,
      mtimeMs: real.mtimeMs,
      ctimeMs: real.ctimeMs,
      device: real.dev,
      inode: real.ino,
      links: 1,
    });
    expect(batch.at(-2)?.kind).toBe('symlink');
    expect(batch.at(-1)).toBeUndefined();
  });
});
