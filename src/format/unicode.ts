/**
 * String rules matching the reference validator (Python): whitespace as `str.isspace()` sees it,
 * lengths in code points, letters and digits as `str.isalnum()` sees them.
 */

function isPythonSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python's `str.strip()` with no arguments. */
export function pythonStrip(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isPythonSpace(value.charCodeAt(start))) start += 1;
  while (end > start && isPythonSpace(value.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** Length in Unicode code points (Python's `len`), not UTF-16 units. */
export function codePointLength(value: string): number {
  let length = value.length;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        index += 1;
      }
    }
  }
  return length;
}

const letterOrDigit = /^[\p{L}\p{N}]$/u;

/** Python's `str.isalnum()` for one code point. */
export function isLetterOrDigit(character: string): boolean {
  return letterOrDigit.test(character);
}

const asciiName = /^[a-z0-9-]+$/;

export function isAsciiName(value: string): boolean {
  return asciiName.test(value);
}

/** Byte length of a string once encoded as UTF-8. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Matches at the start of any text: a search that only makes V8 flatten its subject. */
const anyStart = /^/;

/**
 * A copy of `value` that does not share memory with the text it was cut from. V8 represents a
 * slice of a long string as a view that keeps the whole parent alive; values kept after parsing
 * (properties, messages) are copied so a tree validation does not pin every file it read.
 */
export function detachString(value: string): string {
  // Short strings are copied by V8 on slicing anyway. A longer one is joined again from two
  // pieces and searched once: a search makes V8 copy the join into a string of its own, and the
  // collector then puts that copy wherever the join was referenced. (A slice of a longer copy,
  // `${value} `.slice(0, -1), holds the same text plus a view of it: 32 bytes more a string,
  // 4.8 MB at 50,000 skills.) test/format/unicode.test.ts holds V8 to it.
  if (value.length < 13) return value;
  const joined = value.slice(0, 1) + value.slice(1);
  anyStart.test(joined);
  return joined;
}

/**
 * Characters that render as nothing: tag characters, bidirectional controls, zero-width
 * characters, invisible separators and fillers, variation selectors, soft hyphen, BOM.
 */
const invisible =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each of these characters is matched on its own, combining or not
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** How many invisible characters the text holds. */
export function countInvisible(text: string): number {
  invisible.lastIndex = 0;
  let count = 0;
  while (invisible.exec(text) !== null) count += 1;
  return count;
}

/** The text without its invisible characters. */
export function removeInvisible(text: string): string {
  invisible.lastIndex = 0;
  return text.replace(invisible, '');
}
