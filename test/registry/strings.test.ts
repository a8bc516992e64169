import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSkillMetadata } from '../../src/format/load.js';
import { parseSkill } from '../../src/format/parse.js';
import { mapHash, StringTable } from '../../src/registry/strings.js';

/** A copy of a map on a null prototype, as the readers build them. */
function own(map: Record<string, string>): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, map);
}

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

describe('StringTable.shareMap', () => {
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
        const kept = maps.map((each) => table.shareMap(own(each)));
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
    const a = table.shareMap(own(first));
    const b = table.shareMap(own(second));
    expect(a).not.toBe(b);
    expect({ ...a }).toEqual(first);
    expect({ ...b }).toEqual(second);
    expect(table.shareMap(own(first))).toBe(a);
    expect(table.shareMap(own(second))).toBe(b);
  });
});

describe('toSkillMetadata with a table', () => {
  const skill = (metadata: string, extra = '') =>
    parseSkill(
      `---\nname: a-skill\ndescription: Does a thing.\nlicense: MIT\n${extra}metadata:\n${metadata}---\nBody\n`,
      { file: 'SKILL.md' },
    );

  it('keeps what it would keep alone, and shares equal metadata maps between skills', () => {
    const table = new StringTable();
    const first = skill('  author: team\n  version: "1.0"\n', 'allowed-tools: Read Grep\n');
    const second = skill('  author: team\n  version: "1.0"\n');
    const third = skill('  author: team\n  version: "2.0"\n');
    const [a, b, c] = [first, second, third].map((parsed) =>
      toSkillMetadata(parsed, table.keeping),
    );
    expect(a).toEqual(toSkillMetadata(first));
    expect(b).toEqual(toSkillMetadata(second));
    expect(c).toEqual(toSkillMetadata(third));
    expect(a?.allowedTools).toBe('Read Grep');
    expect(a?.metadata).toBe(b?.metadata);
    expect(c?.metadata).not.toBe(a?.metadata);
    expect(Object.isFrozen(c?.metadata)).toBe(true);
    expect(Object.getPrototypeOf(c?.metadata)).toBeNull();
    // Alone, each skill has a map of its own.
    expect(toSkillMetadata(first)?.metadata).not.toBe(toSkillMetadata(second)?.metadata);
  });

  it('shares a value as an equal string', () => {
    const table = new StringTable();
    fc.assert(fc.property(fc.string({ maxLength: 1100 }), (value) => table.share(value) === value));
  });
});
