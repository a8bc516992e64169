import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapHash, StringTable } from '../../src/registry/strings.js';

/** Two different one-entry maps whose hashes are the same (found by trying). */
function collidingMaps(): [Record<string, string>, Record<string, string>] {
  const seen = new Map<number, string>();
  for (let index = 0; ; index += 1) {
    const value = `v${index.toString(36)}`;
    const hash = mapHash(['k'], { k: value });
    const earlier = seen.get(hash);
    if (earlier !== undefined) return [{ k: earlier }, { k: value }];
    seen.set(hash, value);
  }
}

describe('StringTable.compactMap', () => {
  it('gives one object for equal maps (same keys in order, same values), another otherwise', () => {
    const map = fc.dictionary(
      fc.constantFrom('a', 'b', 'author', 'version'),
      fc.constantFrom('1', '2', 'x'),
      {
        maxKeys: 3,
      },
    );
    fc.assert(
      fc.property(fc.array(map, { minLength: 1, maxLength: 12 }), (maps) => {
        const table = new StringTable();
        const kept = maps.map((each) => table.compactMap(each));
        for (let one = 0; one < maps.length; one += 1) {
          expect({ ...kept[one] }).toEqual(maps[one]);
          expect(Object.isFrozen(kept[one])).toBe(true);
          expect(Object.getPrototypeOf(kept[one])).toBeNull();
          for (let other = 0; other < maps.length; other += 1) {
            const a = maps[one] as Record<string, string>;
            const b = maps[other] as Record<string, string>;
            const equal = JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b));
            expect(kept[one] === kept[other]).toBe(equal);
          }
        }
      }),
    );
  });

  it('tells apart maps whose hashes collide', () => {
    const [first, second] = collidingMaps();
    const table = new StringTable();
    const a = table.compactMap(first);
    const b = table.compactMap(second);
    expect(a).not.toBe(b);
    expect({ ...a }).toEqual(first);
    expect({ ...b }).toEqual(second);
    expect(table.compactMap({ ...first })).toBe(a);
    expect(table.compactMap({ ...second })).toBe(b);
  });
});
