import { createDiagnostic, type Diagnostic } from '../diagnostics.js';

export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Maps UTF-16 offsets in a text to 1-based line and code-point column. Line starts are found
 * lazily, so building one costs nothing until a diagnostic needs a position.
 */
export class LineIndex {
  readonly #text: string;
  #starts: number[] | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  #lineStarts(): number[] {
    if (this.#starts === undefined) {
      const starts = [0];
      const text = this.#text;
      let index = text.indexOf('\n');
      while (index !== -1) {
        starts.push(index + 1);
        index = text.indexOf('\n', index + 1);
      }
      this.#starts = starts;
    }
    return this.#starts;
  }

  position(offset: number): Position {
    const starts = this.#lineStarts();
    const clamped = Math.max(0, Math.min(offset, this.#text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= clamped) low = middle;
      else high = middle - 1;
    }
    const lineStart = starts[low] as number;
    let column = 1;
    for (let index = lineStart; index < clamped; index += 1) {
      const code = this.#text.charCodeAt(index);
      if (code >= 0xdc00 && code <= 0xdfff && index > lineStart) {
        const previous = this.#text.charCodeAt(index - 1);
        if (previous >= 0xd800 && previous <= 0xdbff) continue;
      }
      column += 1;
    }
    return { line: low + 1, column };
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const starts = this.#lineStarts();
    const start = starts[line - 1];
    if (start === undefined) return '';
    const next = starts[line];
    let end = next === undefined ? this.#text.length : next - 1;
    if (end > start && this.#text.charCodeAt(end - 1) === 13) end -= 1;
    return this.#text.slice(start, end);
  }
}

export interface DecodedText {
  /** The decoded text without a leading byte order mark, or undefined when it is not text. */
  readonly text: string | undefined;
  readonly hadBom: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Length of the valid UTF-8 sequence starting at `index`, or 0 when it is invalid. */
function utf8SequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index] as number;
  if (first < 0x80) return 1;
  let length: number;
  let minimum: number;
  if (first >= 0xc2 && first <= 0xdf) {
    length = 2;
    minimum = 0x80;
  } else if (first >= 0xe0 && first <= 0xef) {
    length = 3;
    minimum = 0x800;
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4;
    minimum = 0x10000;
  } else return 0;
  if (index + length > bytes.length) return 0;
  let value = first & (0xff >> (length + 1));
  for (let offset = 1; offset < length; offset += 1) {
    const byte = bytes[index + offset] as number;
    if ((byte & 0xc0) !== 0x80) return 0;
    value = (value << 6) | (byte & 0x3f);
  }
  if (value < minimum || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return 0;
  return length;
}

/** Byte offset of the first invalid UTF-8 sequence, or -1 when all of it is valid. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const length = utf8SequenceLength(bytes, index);
    if (length === 0) return index;
    index += length;
  }
  return -1;
}

/** Line and code-point column of a byte offset in (valid-so-far) UTF-8. */
export function positionOfByte(bytes: Uint8Array, offset: number): Position {
  let line = 1;
  let column = 1;
  for (let index = 0; index < offset && index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    if (byte === 0x0a) {
      line += 1;
      column = 1;
    } else if ((byte & 0xc0) !== 0x80) column += 1;
  }
  return { line, column };
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Is `byte` a tab, a line feed, a carriage return or printable ASCII? */
function isPlainByte(byte: number): boolean {
  return byte < 0x7f && (byte >= 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d);
}

/**
 * Whether every byte is printable ASCII, a tab, a line feed or a carriage return: text without
 * a single control, invisible or non-ASCII character, which the character checks need not read.
 * Most skill files are; four bytes are looked at a time, and only a group that holds a byte below
 * a space or above `~` (nearly always a line feed) is looked at byte by byte.
 */
export function isPlainText(bytes: Uint8Array): boolean {
  const length = bytes.length;
  let index = 0;
  if ((bytes.byteOffset & 3) === 0 && length >= 64) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, length >>> 2);
    for (let at = 0; at < words.length; at += 1) {
      const word = words[at] as number;
      // A byte of 0x80 or more is not ASCII.
      if ((word & 0x80808080) !== 0) return false;
      // With every byte below 0x80, adding 1 sets the top bit of a 0x7f byte, and taking 0x20
      // sets it for a byte below 0x20 (and for a few others, after a borrow: checked below).
      if ((((word + 0x01010101) | (word - 0x20202020)) & 0x80808080) !== 0) {
        const start = at << 2;
        if (
          !isPlainByte(bytes[start] as number) ||
          !isPlainByte(bytes[start + 1] as number) ||
          !isPlainByte(bytes[start + 2] as number) ||
          !isPlainByte(bytes[start + 3] as number)
        )
          return false;
      }
    }
    index = words.length << 2;
  }
  for (; index < length; index += 1) if (!isPlainByte(bytes[index] as number)) return false;
  return true;
}

/**
 * Decodes a SKILL.md strictly: invalid UTF-8 or a NUL byte means it is not text (with the byte
 * offset); one leading byte order mark is removed with a portability warning.
 */
export function decodeSkillText(bytes: Uint8Array, file: string): DecodedText {
  const nul = bytes.indexOf(0);
  let text: string | undefined;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    const offset = findInvalidUtf8(bytes);
    const at = offset === -1 ? 0 : offset;
    if (nul !== -1 && nul < at) return nulDiagnostic(bytes, nul, file);
    const position = positionOfByte(bytes, at);
    const message = `File is not valid UTF-8: byte ${hex(bytes[at] ?? 0)} at byte offset ${at} cannot start or continue a character`;
    return {
      text: undefined,
      hadBom: false,
      diagnostics: [
        createDiagnostic('TEXT_NOT_UTF8', 'error', message, file, position.line, position.column),
      ],
    };
  }
  if (nul !== -1) return nulDiagnostic(bytes, nul, file);
  if (text.charCodeAt(0) === 0xfeff) {
    return {
      text: text.slice(1),
      hadBom: true,
      diagnostics: [
        createDiagnostic(
          'TEXT_BOM',
          'warning',
          'File starts with a UTF-8 byte order mark; it was ignored',
          file,
          1,
          1,
        ),
      ],
    };
  }
  return { text, hadBom: false, diagnostics: [] };
}

function nulDiagnostic(bytes: Uint8Array, offset: number, file: string): DecodedText {
  const position = positionOfByte(bytes, offset);
  return {
    text: undefined,
    hadBom: false,
    diagnostics: [
      createDiagnostic(
        'TEXT_NUL_BYTE',
        'error',
        `File contains a NUL byte at byte offset ${offset}, so it is not text`,
        file,
        position.line,
        position.column,
      ),
    ],
  };
}
