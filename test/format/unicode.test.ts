import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detachString } from '../../src/format/unicode.js';

/** The collector, reached without starting the test process with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('detachString', () => {
  it('returns the same text, whatever it holds', () => {
    const values = [
      '',
      'short',
      'exactly-13-ch',
      'a description of a skill, long enough to be sliced by V8',
      'naïve café résumé, déjà vu: two-byte text past thirteen',
      '\u{1f600} a surrogate pair at the very start of the text',
      'a lone surrogate \ud800 and a pair cut at one: \u{1f680}',
    ];
    for (const value of values) {
      const parent = `prefix ${value} suffix`;
      const cut = parent.slice(7, 7 + value.length);
      expect(detachString(cut)).toBe(value);
      expect(detachString(value)).toBe(value);
    }
  });

  it('keeps neither the text a value was cut from nor a view of it', () => {
    const gc = collector();
    const count = 50_000;
    const length = 200;
    const kept: string[] = new Array(count).fill('');
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < count; index += 1) {
      // A text of 2 KB of its own for each value, dropped as soon as the value is cut from it.
      const text = `${String(index).padStart(6, '0')} ${'body '.repeat(400)}`;
      kept[index] = detachString(text.slice(1000, 1000 + length));
    }
    gc();
    gc();
    const perValue = (process.memoryUsage().heapUsed - before) / count;
    // A flat copy is its characters and a 16-byte header: 216 bytes. A kept parent would cost
    // 2 KB more; a view of a copy, 32 bytes more (the slice of a longer copy did that).
    expect(perValue).toBeLessThan(length + 40);
    expect(kept[count - 1]).toHaveLength(length);
  });
});
