import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findKeywordStuffing,
  STUFFING_MIN_REPEATS,
  STUFFING_MIN_SHARE,
  tokenize,
} from '../../src/format/terms.js';
import { validateSkill } from '../../src/format/validate.js';
import { parseSkill } from '../../src/index.js';

describe('findKeywordStuffing: a term at least 4 times and at least 30% of the terms', () => {
  it('has the documented thresholds', () => {
    expect([STUFFING_MIN_REPEATS, STUFFING_MIN_SHARE]).toEqual([4, 0.3]);
  });

  it.each([
    ['pdf pdf pdf pdf', { term: 'pdf', count: 4, terms: 4 }],
    ['Merge PDF files. pdf pdf pdf pdf', { term: 'pdf', count: 5, terms: 7 }],
    // 4 in 13 terms: 31%.
    ['pdf pdf pdf pdf a1 b2 c3 d4 e5 f6 g7 h8 i9', { term: 'pdf', count: 4, terms: 13 }],
    ['p\u200bdf p\u200bdf p\u200bdf p\u200bdf', { term: 'pdf', count: 4, terms: 4 }],
  ])('finds it in %j', (description, expected) => {
    expect(findKeywordStuffing(description)).toEqual(expected);
  });

  it.each([
    'pdf pdf pdf',
    // 4 in 14 terms: 29%.
    'pdf pdf pdf pdf a1 b2 c3 d4 e5 f6 g7 h8 i9 j0',
    'Extract text and tables from PDF files, fill PDF forms, merge PDF documents.',
    // A real description of the corpus: 'event' 5 times in 19 terms (26%).
    'Design event stores for event-sourced systems. Use when building event sourcing infrastructure, choosing event store technologies, or implementing event persistence patterns.',
  ])('leaves %j alone', (description) => {
    expect(findKeywordStuffing(description)).toBeUndefined();
  });

  it('finds what counting every term in order finds (the first term to reach the top count)', () => {
    const naive = (description: string) => {
      const terms = tokenize(description);
      const counts = new Map<string, number>();
      let top: { term: string; count: number; terms: number } | undefined;
      for (const term of terms) {
        const count = (counts.get(term) ?? 0) + 1;
        counts.set(term, count);
        if (top === undefined || count > top.count) top = { term, count, terms: terms.length };
      }
      return top !== undefined &&
        top.count >= STUFFING_MIN_REPEATS &&
        top.count / terms.length >= STUFFING_MIN_SHARE
        ? top
        : undefined;
    };
    const words = fc.constantFrom('pdf', 'merge', 'files', 'tables', 'forms', 'x1', 'y2', 'z3');
    fc.assert(
      fc.property(fc.array(words, { maxLength: 30 }), (list) => {
        const description = list.join(' ');
        expect(findKeywordStuffing(description)).toEqual(naive(description));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the same in any ASCII text: case, digits, stop words, punctuation', () => {
    const naive = (description: string) => {
      const terms = tokenize(description);
      const counts = new Map<string, number>();
      let top: { term: string; count: number; terms: number } | undefined;
      for (const term of terms) {
        const count = (counts.get(term) ?? 0) + 1;
        counts.set(term, count);
        if (top === undefined || count > top.count) top = { term, count, terms: terms.length };
      }
      return top !== undefined &&
        top.count >= STUFFING_MIN_REPEATS &&
        top.count / terms.length >= STUFFING_MIN_SHARE
        ? top
        : undefined;
    };
    const words = fc.constantFrom(
      'PDF',
      'pdf',
      'Pdf',
      'the',
      'THE',
      'a',
      'x',
      'it9',
      'IT9',
      '42',
      'their',
      'theirs',
      'merge-files',
      'tables,',
      '@[z]',
      'zzzzz',
      'zzzzzz',
      '0',
    );
    const separators = fc.constantFrom(' ', '\n', '. ', '_', '`');
    fc.assert(
      fc.property(fc.array(fc.tuple(words, separators), { maxLength: 40 }), (list) => {
        const description = list.map(([word, separator]) => word + separator).join('');
        expect(findKeywordStuffing(description)).toEqual(naive(description));
      }),
      { numRuns: 5000 },
    );
  });

  it('drops a stop word of an ASCII text exactly as tokenize does, in any case', () => {
    // Every word of two or three letters and digits, and words of four and five: a stop word
    // repeated is no stuffing at all, any other word repeated is.
    const characters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const words: string[] = [];
    for (const a of characters) for (const b of characters) words.push(a + b);
    for (const a of characters)
      for (const b of characters) for (const c of characters) words.push(a + b + c);
    const letters = fc.constantFrom(...'aehinorstuwyz9');
    const longer = fc.array(letters, { minLength: 4, maxLength: 6 }).map((parts) => parts.join(''));
    const check = (word: string) => {
      const stop = tokenize(word).length === 0;
      for (const written of [word, word.toUpperCase()]) {
        const found = findKeywordStuffing(`${written} ${written} ${written} ${written}`);
        expect(found === undefined ? 'stop' : found.term, written).toBe(stop ? 'stop' : word);
      }
    };
    for (const word of words) check(word);
    for (const word of ['that', 'them', 'then', 'there', 'these', 'their', 'using', 'which'])
      check(word);
    fc.assert(fc.property(longer, check), { numRuns: 5000 });
  });

  it('is a warning in both modes, never an error', () => {
    for (const mode of ['strict', 'lenient'] as const) {
      const parsed = parseSkill('---\nname: demo\ndescription: pdf pdf pdf pdf pdf\n---\nBody\n', {
        file: 'demo/SKILL.md',
        directoryName: 'demo',
      });
      const found = validateSkill(parsed, { mode }).filter(
        (diagnostic) => diagnostic.code === 'DESCRIPTION_KEYWORD_STUFFING',
      );
      expect(found).toEqual([
        expect.objectContaining({
          severity: 'warning',
          line: 3,
          message: expect.stringContaining("repeats 'pdf' 5 times in 5 terms (100%)"),
        }),
      ]);
    }
  });
});

describe('tokenize', () => {
  /** The words as the Unicode expression finds them; a stop word is one tokenize drops alone. */
  const byExpression = (text: string) =>
    [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)]
      .map((match) => match[0])
      .filter((token) => token.length > 1 && tokenize(token).length === 1);

  it('reads ASCII text as the Unicode expression does', () => {
    const word = fc.constantFrom('pdf', 'PDF', 'x', 'the', 'And', 'use', 'when', 'a', 'v2', '42');
    const text = fc
      .array(fc.oneof(word, fc.string({ unit: 'binary-ascii', maxLength: 4 })), {
        maxLength: 12,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(tokenize(value)).toEqual(byExpression(value));
      }),
      { numRuns: 500 },
    );
    expect(tokenize('Use the PDF tool when PDFs v2 arrive')).toEqual([
      'pdf',
      'tool',
      'pdfs',
      'v2',
      'arrive',
    ]);
  });

  it('reads other text with the Unicode expression', () => {
    expect(tokenize('Größe ÄNDERN café-menü x ½')).toEqual(['größe', 'ändern', 'café', 'menü']);
  });
});
