import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/format/characters.js';
import { decodeSkillText, findInvalidUtf8, isPlainText, LineIndex } from '../../src/format/text.js';

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeSkillText', () => {
  it('decodes UTF-8 text as is', () => {
    const result = decodeSkillText(utf8('---\nname: 技能\n'), 'f');
    expect(result).toEqual({ text: '---\nname: 技能\n', hadBom: false, diagnostics: [] });
  });

  it('strips one leading byte order mark with a portability warning', () => {
    const result = decodeSkillText(utf8('\ufeff---\n'), 'f');
    expect(result.text).toBe('---\n');
    expect(result.hadBom).toBe(true);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'TEXT_BOM', severity: 'warning', line: 1, column: 1 }),
    ]);
    expect(decodeSkillText(utf8('\ufeff\ufeff---\n'), 'f').text).toBe('\ufeff---\n');
  });

  it('refuses a NUL byte and says where it is', () => {
    const result = decodeSkillText(utf8('---\nab\u0000c'), 'SKILL.md');
    expect(result.text).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        code: 'TEXT_NUL_BYTE',
        severity: 'error',
        message: expect.stringContaining('byte offset 6'),
        file: 'SKILL.md',
        line: 2,
        column: 3,
      },
    ]);
  });

  it.each([
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['a truncated sequence', bytes(0x61, 0x62, 0xe6, 0x8a), 2],
    ['an overlong encoding', bytes(0xc0, 0xaf), 0],
    ['an encoded surrogate', bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ['Latin-1 text', new Uint8Array([...utf8('caf'), 0xe9, 0x0a]), 3],
    ['a code point above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
  ])('refuses %s with the byte offset', (_label, input, offset) => {
    const result = decodeSkillText(input, 'f');
    expect(result.text).toBeUndefined();
    expect(result.diagnostics[0]).toMatchObject({ code: 'TEXT_NOT_UTF8', severity: 'error' });
    expect(result.diagnostics[0]?.message).toContain(`byte offset ${offset}`);
    expect(findInvalidUtf8(input)).toBe(offset);
  });

  it('reports whichever of NUL and invalid UTF-8 comes first', () => {
    const result = decodeSkillText(bytes(0x00, 0xff), 'f');
    expect(result.diagnostics[0]?.code).toBe('TEXT_NUL_BYTE');
    expect(decodeSkillText(bytes(0xff, 0x00), 'f').diagnostics[0]?.code).toBe('TEXT_NOT_UTF8');
  });

  it('treats a binary file (a PNG header) as not text', () => {
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00);
    expect(decodeSkillText(png, 'f').diagnostics[0]?.code).toBe('TEXT_NOT_UTF8');
  });
});

describe('LineIndex', () => {
  it('maps offsets to 1-based lines and code-point columns', () => {
    const index = new LineIndex('ab\n😀x\r\nlast');
    expect(index.position(0)).toEqual({ line: 1, column: 1 });
    expect(index.position(3)).toEqual({ line: 2, column: 1 });
    expect(index.position(5)).toEqual({ line: 2, column: 2 });
    expect(index.position(9)).toEqual({ line: 3, column: 2 });
    expect(index.lineText(2)).toBe('😀x');
    expect(index.lineText(3)).toBe('last');
    expect(index.lineText(9)).toBe('');
  });
});

describe('isPlainText', () => {
  const plainByte = (byte: number) =>
    (byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d;
  const expected = (data: Uint8Array) => data.every(plainByte);
  /** `length` bytes of plain text at `offset` in a buffer of their own. */
  const text = (length: number, offset = 0) => {
    const buffer = new Uint8Array(new ArrayBuffer(length + offset + 8), offset, length);
    for (let index = 0; index < length; index += 1)
      buffer[index] = index % 41 === 40 ? 0x0a : 0x61 + (index % 26);
    return buffer;
  };

  it('tells plain text from text with any other byte, at every place in a group of four', () => {
    for (const offset of [0, 1, 2, 3, 4]) {
      for (const length of [0, 1, 5, 63, 64, 67, 200]) {
        expect(isPlainText(text(length, offset)), `${length}@${offset}`).toBe(true);
        for (let at = 0; at < Math.min(length, 9); at += 1) {
          for (let byte = 0; byte < 256; byte += 1) {
            const data = text(length, offset);
            const place = length - 1 - at;
            data[place] = byte;
            expect(isPlainText(data), `${byte} at ${place} of ${length}@${offset}`).toBe(
              plainByte(byte),
            );
          }
        }
      }
    }
  });

  it('agrees with a byte-by-byte look at any bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (noise, offset, share) => {
          // Mostly plain, with a share of any byte: both outcomes are common.
          const data = text(noise.length, offset);
          for (let index = 0; index < noise.length; index += 1)
            if ((noise[index] as number) / 255 < share / 8) data[index] = noise[index] as number;
          expect(isPlainText(data)).toBe(expected(data));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('says plain only of text the character checks find nothing in', () => {
    // The body check is skipped for plain text: no plain byte may be one it reports.
    for (let byte = 0; byte < 128; byte += 1) {
      if (!plainByte(byte)) continue;
      const found = cleanText(`a${String.fromCharCode(byte)}b`);
      expect(found.control.count + found.hidden.count, String(byte)).toBe(0);
    }
  });
});
