import { describe, expect, it } from 'vitest';
import { decodeSkillText, findInvalidUtf8, LineIndex } from '../../src/format/text.js';

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
