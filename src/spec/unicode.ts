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

/**
 * A copy of `value` that does not share memory with the text it was cut from. V8 represents a
 * slice of a long string as a view that keeps the whole parent alive; values kept after parsing
 * (properties, messages) are copied so a tree validation does not pin every file it read.
 */
export function detachString(value: string): string {
  return value.length < 13 ? value : ` ${value}`.slice(1);
}
