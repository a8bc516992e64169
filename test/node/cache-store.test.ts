import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDirectoryCacheStore } from '../../src/node/cache-store.js';
import { tempDir } from '../helpers/temp.js';

/** The store reads an entry in pieces of this many bytes: texts are built around it. */
const PIECE = 256 * 1024;

function openFiles(): number {
  return readdirSync('/proc/self/fd').length;
}

describe('the directory cache store', () => {
  it('gives an entry line by line exactly as splitting its text would, across its pieces', () => {
    const store = createDirectoryCacheStore(join(tempDir(), 'cache'));
    // Lines of any length, some longer than a piece, with characters of one to four bytes that
    // fall on the boundaries between pieces.
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '"'), maxLength: 40 }),
      fc
        .tuple(fc.integer({ min: PIECE - 6, max: 2 * PIECE + 6 }), fc.constantFrom('x', 'é', '😀'))
        .map(([length, last]) => `${'y'.repeat(length)}${last}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), (lines, finalBreak) => {
        const text = `${lines.join('\n')}${finalBreak ? '\n' : ''}`;
        store.save('entry', text);
        expect([...(store.loadLines?.('entry') ?? ['missing'])]).toEqual(text.split('\n'));
      }),
      { numRuns: 40 },
    );
  });

  it('has no lines for an entry it does not hold, or a key it refuses', () => {
    const store = createDirectoryCacheStore(join(tempDir(), 'cache'));
    expect(store.loadLines?.('absent')).toBeUndefined();
    expect(store.loadLines?.('../outside')).toBeUndefined();
    store.save('present', 'one\ntwo');
    expect(store.loadLines?.('present')).toBeDefined();
  });

  it('closes the entry when the reading ends, stops early or fails', () => {
    const store = createDirectoryCacheStore(join(tempDir(), 'cache'));
    store.save('entry', `${'z'.repeat(3 * PIECE)}\nsecond\nthird`);
    const before = openFiles();
    const whole = [...(store.loadLines?.('entry') ?? [])];
    expect(whole.length).toBe(3);
    expect(openFiles()).toBe(before);
    for (const line of store.loadLines?.('entry') ?? []) {
      expect(line.length).toBe(3 * PIECE);
      break;
    }
    expect(openFiles()).toBe(before);
    expect(() => {
      for (const _ of store.loadLines?.('entry') ?? []) throw new Error('stop');
    }).toThrow('stop');
    expect(openFiles()).toBe(before);
  });

  it('saves an entry from its lines as the text they join into, written as they come', () => {
    const folder = join(tempDir(), 'cache');
    const store = createDirectoryCacheStore(folder);
    const lines = [
      '{"head":1}',
      ...Array.from({ length: 3000 }, (_, index) => `l${index}é${'w'.repeat(index % 300)}`),
      '',
    ];
    store.saveLines?.('entry', lines);
    expect(store.load('entry')).toBe(lines.join('\n'));
    expect([...(store.loadLines?.('entry') ?? [])]).toEqual(lines);
    store.saveLines?.('empty', []);
    expect(store.load('empty')).toBe('');
    // Lines that fail midway leave the entry as it was, and no temporary file.
    store.saveLines?.(
      'entry',
      (function* () {
        yield 'replacement';
        throw new Error('the scan went away');
      })(),
    );
    expect(store.load('entry')).toBe(lines.join('\n'));
    expect(readdirSync(folder).sort()).toEqual(['empty.json', 'entry.json']);
    store.saveLines?.('../outside', ['x']);
    expect(readdirSync(join(folder, '..'))).toEqual(['cache']);
  });
});
