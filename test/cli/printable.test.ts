import { describe, expect, it } from 'vitest';
import { terminalText } from '../../src/cli/printable.js';

/** The rule `terminalText` applies, written out once more as the expression alone. */
function reference(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /(\u001b\[(?:1|2|22|31|32|33|36|39)m)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g,
    (match, colour: string | undefined) =>
      colour === undefined ? `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}` : colour,
  );
}

describe('terminalText', () => {
  it('changes, around every UTF-16 unit, what the full rule changes and nothing else', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const character = String.fromCharCode(code);
      for (const text of [`a${character}b`, `${character}\n`, `${character}[31m`]) {
        expect(terminalText(text)).toBe(reference(text));
      }
    }
  });

  it('keeps the CLI colours and line ends, escapes other sequences and a lone carriage return', () => {
    expect(terminalText('\u001b[31mred\u001b[39m\r\n')).toBe('\u001b[31mred\u001b[39m\r\n');
    expect(terminalText('x\u001b[2Jy\rz')).toBe('x\\u001b[2Jy\\u000dz');
  });
});
