import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlFast } from '../../src/format/yaml-fast.js';
import { parseYamlWithLibrary } from '../../src/format/yaml-library.js';
import type { FieldLocation, YamlResult } from '../../src/format/yaml-types.js';
import { yamlLibrary } from '../helpers/yaml.js';

/** Plain JSON-able view of a parse result: data and every location. */
function view(result: YamlResult) {
  const locations: Record<string, unknown> = {};
  for (const [key, location] of result.locations) locations[key] = locationView(location);
  return { data: JSON.parse(JSON.stringify(result.data ?? null)), locations };
}

function locationView(location: FieldLocation) {
  const children: Record<string, unknown> = {};
  for (const [key, child] of location.children ?? []) children[key] = locationView(child);
  return { key: location.keyOffset, value: location.valueOffset, children };
}

/** Every input the fast scanner accepts must read exactly as the YAML library reads it. */
function assertAgreesWithLibrary(source: string): boolean {
  const fast = parseYamlFast(source);
  if (fast === undefined) return false;
  const library = parseYamlWithLibrary(source, 32, yamlLibrary);
  expect(library.problems, JSON.stringify(source)).toEqual([]);
  expect(view(fast), JSON.stringify(source)).toEqual(view(library));
  return true;
}

const tricky = [
  'a',
  'b',
  'z',
  ' ',
  ' ',
  '-',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  '\\',
  '[',
  ']',
  '{',
  '}',
  ',',
  '|',
  '>',
  '!',
  '&',
  '*',
  '%',
  '@',
  '`',
  '?',
  '\t',
  'é',
  '中',
  '😀',
  '\u00a0',
  '\r',
  '.',
  '/',
  '~',
  '=',
  '---',
  '...',
  'true',
  'null',
  '1.0',
  '0x1F',
  '\u2028',
  '\u0085',
  '\ufeff',
  '\u0007',
];
const safeCharacters = ['a', 'b', 'c', ' ', '-', '.', ',', '(', ')', 'é', '中', '😀', '1', 'x'];

const plainText = fc
  .array(fc.constantFrom(...safeCharacters), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));
const trickyText = fc
  .array(fc.oneof(fc.constantFrom(...tricky), fc.constantFrom(...safeCharacters)), {
    minLength: 0,
    maxLength: 10,
  })
  .map((parts) => parts.join(''));
const text = fc.oneof({ weight: 3, arbitrary: plainText }, { weight: 2, arbitrary: trickyText });

const key = fc.oneof(
  fc.constantFrom(
    'name',
    'description',
    'license',
    'metadata',
    'allowed-tools',
    'x',
    '__proto__',
    'A_1',
    'a-b',
    'k9',
  ),
  trickyText,
);
const space = fc.constantFrom('', ' ', '  ', '\t');
const newline = fc.constantFrom('\n', '\n', '\r\n');

const inlineValue = fc.oneof(
  text,
  text.map((value) => `"${value}"`),
  text.map((value) => `'${value}'`),
  text.map((value) => `${value} # comment`),
);

const blockValue = fc
  .tuple(
    fc.constantFrom('|', '>', '|-', '>-', '|+', '>2', '| #c'),
    fc.array(fc.tuple(fc.constantFrom('  ', '  ', '   ', ' ', ''), text), {
      minLength: 0,
      maxLength: 4,
    }),
    newline,
  )
  .map(
    ([header, lines, eol]) =>
      `${header}${lines.map(([indent, value]) => `${eol}${indent}${value}`).join('')}`,
  );

const nestedValue = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('  ', '  ', '    ', ' '), key, inlineValue), {
      minLength: 0,
      maxLength: 3,
    }),
    newline,
  )
  .map(([entries, eol]) => entries.map(([indent, k, v]) => `${eol}${indent}${k}: ${v}`).join(''));

const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, space, inlineValue).map(([k, s, v]) => `${k}:${s}${v}`) },
  { weight: 2, arbitrary: fc.tuple(key, blockValue).map(([k, v]) => `${k}: ${v}`) },
  { weight: 2, arbitrary: fc.tuple(key, nestedValue).map(([k, v]) => `${k}:${v}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('# a comment', '', '   ', '  continued', '- item', '...'),
  },
  { weight: 1, arbitrary: trickyText },
);

const document = fc
  .tuple(fc.array(fc.tuple(line, newline), { minLength: 1, maxLength: 7 }), fc.boolean())
  .map(([lines, finalNewline]) => {
    const joined = lines.map(([content, eol]) => `${content}${eol}`).join('');
    return finalNewline ? joined : joined.replace(/\r?\n$/, '');
  });

/** Mostly well-formed frontmatter, with small perturbations: exercises what the scanner accepts. */
const safeKey = fc.constantFrom(
  'name',
  'description',
  'license',
  'compatibility',
  'allowed-tools',
  'x',
  '__proto__',
  'A_1',
  'a-b',
);
const mostlyPlain = fc.oneof(
  { weight: 8, arbitrary: plainText },
  { weight: 1, arbitrary: trickyText },
);
const wellFormedValue = fc.oneof(
  { weight: 5, arbitrary: mostlyPlain },
  { weight: 1, arbitrary: mostlyPlain.map((value) => `"${value}"`) },
  { weight: 1, arbitrary: mostlyPlain.map((value) => `'${value}'`) },
);
const wellFormedEntry = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(safeKey, fc.constantFrom(' ', '  '), wellFormedValue)
      .map(([k, s, v]) => [k, `${k}:${s}${v}`] as const),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        safeKey,
        fc.constantFrom('|', '>', '|-', '>-'),
        fc.constantFrom('  ', '    '),
        fc.array(mostlyPlain, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
      )
      .map(
        ([k, header, indent, lines, trailingBlank]) =>
          [
            k,
            `${k}: ${header}\n${lines.map((l) => `${indent}${l.trimEnd() || 'x'}`).join('\n')}${trailingBlank ? '\n' : ''}`,
          ] as const,
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        safeKey,
        fc.constantFrom('  ', '    '),
        fc.uniqueArray(fc.tuple(safeKey, wellFormedValue), {
          minLength: 1,
          maxLength: 3,
          selector: ([k]) => k,
        }),
      )
      .map(
        ([k, indent, entries]) =>
          [k, `${k}:\n${entries.map(([ek, ev]) => `${indent}${ek}: ${ev}`).join('\n')}`] as const,
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom('# comment', '').map((line) => ['', line] as const) },
);
const wellFormedDocument = fc
  .tuple(fc.array(wellFormedEntry, { minLength: 1, maxLength: 6 }), newline)
  .map(([entries, eol]) => {
    const seen = new Set<string>();
    const lines: string[] = [];
    for (const [entryKey, line] of entries) {
      if (entryKey !== '' && seen.has(entryKey)) continue;
      seen.add(entryKey);
      lines.push(line);
    }
    return `${lines.join('\n')}\n`.replace(/\n/g, eol);
  });

describe('fast frontmatter scanner', () => {
  it('reads every input it accepts exactly as the YAML library does (mostly well-formed documents)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(wellFormedDocument, (source) => {
        if (assertAgreesWithLibrary(source)) accepted += 1;
      }),
      { numRuns: 4000 },
    );
    expect(accepted).toBeGreaterThan(1500);
  });

  it('reads every input it accepts exactly as the YAML library does (random documents)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(document, (source) => {
        if (assertAgreesWithLibrary(source)) accepted += 1;
      }),
      { numRuns: 4000 },
    );
    // Random documents are mostly declined; some must still be accepted and compared.
    expect(accepted).toBeGreaterThan(20);
  });

  it('agrees with the library on hand-picked edge cases', () => {
    const cases = [
      'name: a\ndescription: b\n',
      'name: a\r\ndescription: b\r\n',
      'a: x:y\n',
      'a: x #y\n',
      'a: x# y\n',
      'a: [x]\n',
      'a: x [y] {z}\n',
      'a: "x" \n',
      "a: 'it''s'\n",
      "a: ''''\n",
      'a: ""\n',
      'a:\n  b: c\n  d: e\n',
      'a:\n  b: c\n\n  d: e\nf: g\n',
      'a: >\n  one\n  two\n\nb: c\n',
      'a: |\n  one\n  two\n',
      'a: |-\n  one\n  two',
      'a: >-\n  one\n',
      'description: Use when: the user asks\n',
      'a: b\n  c\n',
      'a: b\n\n  c\n',
      '__proto__: x\n',
      'a: 😀 ok\n',
      'a: x\u00a0\n',
      'metadata:\n  version: "1.0"\n  author: me\n',
    ];
    const accepted = cases.filter((source) => assertAgreesWithLibrary(source));
    expect(accepted.length).toBeGreaterThan(12);
  });

  it('declines what it does not handle, leaving it to the library', () => {
    for (const source of [
      'a: [x, y]\n',
      'a: {b: c}\n',
      'a: &x y\n',
      'a: *x\n',
      'a: !!str y\n',
      'a: "x\\ty"\n',
      'a: b\na: c\n',
      ' a: b\n',
      'a:\n  - x\n',
      'a: |+\n  x\n',
      'a: x\ty\n',
      '# only a comment\n',
      '',
      'a: b\n...\n',
      'a:\n',
    ]) {
      expect(parseYamlFast(source), JSON.stringify(source)).toBeUndefined();
    }
  });

  it('declines every character it leaves to the library, and reads a pair and CRLF', () => {
    const declined = [
      ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x0a),
      ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
      0x2028,
      0x2029,
      0xfeff,
      0xfffe,
      0xffff,
      0xd83d,
      0xde00,
    ].map((code) => String.fromCharCode(code));
    for (const character of [...declined, '\ude00\ud83d']) {
      const source = `a: x${character}y\n`;
      expect(parseYamlFast(source), JSON.stringify(source)).toBeUndefined();
    }
    expect(parseYamlFast('a: x\ud83d\ude00y\r\nb: c\r\n')?.data).toEqual({
      a: 'x\ud83d\ude00y',
      b: 'c',
    });
  });
});
