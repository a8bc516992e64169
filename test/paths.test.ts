import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseName, joinPath } from '../src/paths.js';

describe('joinPath', () => {
  it('puts one slash between a folder and a name, SKILL.md or any other', () => {
    const segment = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', 'é'), minLength: 1 });
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.constant('SKILL.md'), fc.constant('skill.md'), segment),
        fc.boolean(),
        (parts, name, trailing) => {
          const base = `/${parts.join('/')}${trailing ? '/' : ''}`;
          const joined = joinPath(base, name);
          expect(joined).toBe(`${base.replace(/\/$/, '')}/${name}`);
          expect(baseName(joined)).toBe(name);
          expect(joinPath(base, '')).toBe(base);
        },
      ),
    );
    expect(joinPath('/', 'SKILL.md')).toBe('/SKILL.md');
  });
});
