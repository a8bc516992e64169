import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonItems, jsonString } from '../../src/cli/json-items.js';

function streamed(values: readonly unknown[], takeEvery: boolean): string {
  const items = jsonItems();
  let text = `{\n  "results": [${values.length === 0 ? '' : '\n    '}`;
  const write = (piece: string) => {
    text += piece;
  };
  for (const value of values) {
    items.add(value);
    if (takeEvery || items.full) items.take(write);
  }
  items.take(write);
  return `${text}${values.length === 0 ? '' : '\n  '}]\n}`;
}

describe('jsonItems', () => {
  it('streams the items of a list exactly as the indented document writes them', () => {
    for (const size of [0, 1, 2, 99, 100, 101, 250]) {
      const values = Array.from({ length: size }, (_, index) => ({
        path: `/skills/s${index}`,
        valid: index % 2 === 0,
        diagnostics: index % 3 === 0 ? [] : [{ code: 'X', message: 'a\n"b"\u2028', line: index }],
        properties: { metadata: { nested: ['x', { y: null }] }, skipped: undefined },
      }));
      const expected = JSON.stringify({ results: values }, null, 2);
      expect(streamed(values, false)).toBe(expected);
      expect(streamed(values, true)).toBe(expected);
    }
  });

  it('holds at most a hundred items before it says to write them out', () => {
    const items = jsonItems();
    for (let index = 0; index < 99; index += 1) items.add(index);
    expect(items.full).toBe(false);
    items.add(99);
    expect(items.full).toBe(true);
    const pieces: string[] = [];
    items.take((piece) => pieces.push(piece));
    expect(pieces).toHaveLength(1);
    expect(pieces[0]?.split(',')).toHaveLength(100);
    expect(items.full).toBe(false);
    items.take((piece) => pieces.push(piece));
    expect(pieces).toHaveLength(1);
    // A later batch is written after its separator, each a write of its own.
    items.add(100);
    items.take((piece) => pieces.push(piece));
    expect(pieces.slice(1)).toEqual([',\n    ', '100']);
  });
});

describe('jsonString', () => {
  it('is JSON.stringify of any text', () => {
    // Every character up to U+00FF, the line separators, and halves of surrogate pairs alone,
    // in pairs and reversed: each needs or needs no escape as the stringifier decides.
    const characters = [
      ...Array.from({ length: 256 }, (_, code) => String.fromCharCode(code)),
      '\u2028',
      '\u2029',
      '\ud83d',
      '\ude00',
      '\ud83d\ude00',
      '\ude00\ud83d',
    ];
    for (const character of characters) {
      for (const text of [character, `a${character}`, `${character}b`, `/path/${character}/x`]) {
        expect(jsonString(text)).toBe(JSON.stringify(text));
      }
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        (text) => jsonString(text) === JSON.stringify(text),
      ),
    );
  });
});
