import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_QUOTED_CHARACTERS, quote } from '../src/quote.js';

describe('quote: values in messages are bounded', () => {
  it('quotes short values whole and cuts long ones with an ellipsis and the full length', () => {
    expect(quote('alpha')).toBe("'alpha'");
    expect(quote('a'.repeat(10_000))).toBe(`'${'a'.repeat(80)}…' (10000 characters)`);
    expect(quote('😀'.repeat(100))).toBe(`'${'😀'.repeat(80)}…' (100 characters)`);
    expect(quote('x\n\u001b[2J "q"')).toBe('\'x\\n\\u001b[2J "q"\'');
  });

  it('never grows past the bound, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000, unit: 'binary' }), (value) => {
        // JSON escapes take at most 6 characters per code point; the suffix is short.
        expect(quote(value).length).toBeLessThanOrEqual(MAX_QUOTED_CHARACTERS * 6 + 40);
      }),
    );
  });
});
