import type { FieldLocation, FrontmatterMap, FrontmatterValue, YamlResult } from './yaml-types.js';

/**
 * A scanner for the plain subset of frontmatter that real skills almost always use:
 * `key: value` lines with plain, single-quoted or double-quoted (escape-free) one-line values,
 * `|`/`>` block scalars with uniform indentation, and one nested mapping level (metadata).
 *
 * It returns undefined for anything else, and the caller hands the text to the YAML library.
 * Whatever it accepts, it must read exactly as the library does: the differential property
 * tests in test/format/yaml-fast.property.test.ts hold it to that.
 */

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const PIPE = 124;
const GREATER = 62;
const MINUS = 45;
const CR = 13;

/**
 * Characters the scanner leaves to the library: controls (but LF and CRLF), DEL, C1 controls,
 * line and paragraph separators, BOM, non-characters and lone surrogates.
 */
const unsafeCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every character `unsafeCharacter` can match at, in one class (a carriage return and every
 * surrogate included): one quick scan finds nearly every frontmatter clean, which the
 * alternatives above scan at about half the speed.
 */
const suspectCharacter =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;

/**
 * Mappings are built on plain objects whose prototype is removed once they are complete: stores
 * into an `Object.create(null)` object by computed key keep resetting V8's inline caches, so the
 * scanner was never optimised. The one key a plain object treats specially is left to the library.
 */
const PROTO_KEY = '__proto__';

function withoutPrototype(
  mapping: Record<string, FrontmatterValue>,
): Record<string, FrontmatterValue> {
  return Object.setPrototypeOf(mapping, null) as Record<string, FrontmatterValue>;
}

/** Characters that may not start a plain scalar (YAML indicators), plus space. */
function forbiddenPlainStart(code: number): boolean {
  switch (code) {
    case 45: // -
    case 63: // ?
    case 58: // :
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 35: // #
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 37: // %
    case 64: // @
    case 96: // `
    case 32: // space
      return true;
    default:
      return false;
  }
}

/** End of the line starting at `start`: the offset of its `\n`, or the text length. */
function lineBreak(source: string, start: number): number {
  const newline = source.indexOf('\n', start);
  return newline === -1 ? source.length : newline;
}

/** End of a line's content, before a `\r` that precedes its `\n`. */
function contentEnd(source: string, start: number, newline: number): number {
  return newline > start && source.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
}

function skipSpaces(source: string, index: number, end: number): number {
  let cursor = index;
  while (cursor < end && source.charCodeAt(cursor) === SPACE) cursor += 1;
  return cursor;
}

/** Scans `key:` at `start`; returns the offset just past the colon, or -1. */
function scanKey(source: string, start: number, end: number): number {
  const first = source.charCodeAt(start);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122) || first === 95)) return -1;
  let index = start + 1;
  while (index < end) {
    const code = source.charCodeAt(index);
    if (
      (code >= 97 && code <= 122) ||
      code === MINUS ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 95
    ) {
      index += 1;
    } else break;
  }
  if (source.charCodeAt(index) !== COLON) return -1;
  const after = index + 1;
  if (after < end && source.charCodeAt(after) !== SPACE) return -1;
  return after;
}

/** Reads a one-line flow or plain value occupying [start, end); undefined when out of subset. */
function scanInlineValue(source: string, start: number, end: number): string | undefined {
  const first = source.charCodeAt(start);
  if (first === DOUBLE_QUOTE) {
    const close = source.indexOf('"', start + 1);
    if (close === -1 || close >= end) return undefined;
    const backslash = source.indexOf('\\', start + 1);
    if (backslash !== -1 && backslash < close) return undefined;
    if (skipSpaces(source, close + 1, end) !== end) return undefined;
    return source.slice(start + 1, close);
  }
  if (first === SINGLE_QUOTE) {
    let result = '';
    let index = start + 1;
    for (;;) {
      const quote = source.indexOf("'", index);
      if (quote === -1 || quote >= end) return undefined;
      if (source.charCodeAt(quote + 1) === SINGLE_QUOTE) {
        result += source.slice(index, quote + 1);
        index = quote + 2;
        continue;
      }
      if (skipSpaces(source, quote + 1, end) !== end) return undefined;
      return result + source.slice(index, quote);
    }
  }
  if (forbiddenPlainStart(first)) return undefined;
  let valueEnd = end;
  while (source.charCodeAt(valueEnd - 1) === SPACE) valueEnd -= 1;
  if (source.charCodeAt(valueEnd - 1) === COLON) return undefined;
  const value = source.slice(start, valueEnd);
  if (value.includes(': ') || value.includes(' #')) return undefined;
  return value;
}

/** Offset where the next non-blank line starts, or the text length; -2 if a blank line has spaces. */
function nextContentLine(source: string, start: number): number {
  let position = start;
  while (position < source.length) {
    const newline = lineBreak(source, position);
    const end = contentEnd(source, position, newline);
    const first = skipSpaces(source, position, end);
    if (first < end) return position;
    position = newline + 1;
  }
  return source.length;
}

function indentAt(source: string, position: number): number {
  let index = position;
  while (source.charCodeAt(index) === SPACE) index += 1;
  return index - position;
}

interface Scanned<T> {
  readonly value: T;
  readonly next: number;
}

/** Reads a `|`, `|-`, `>` or `>-` block scalar whose header line ends at `headerEnd`. */
function scanBlockScalar(
  source: string,
  indicatorOffset: number,
  headerEnd: number,
  position: number,
): Scanned<string> | undefined {
  const folded = source.charCodeAt(indicatorOffset) === GREATER;
  let cursor = indicatorOffset + 1;
  let strip = false;
  if (source.charCodeAt(cursor) === MINUS) {
    strip = true;
    cursor += 1;
  }
  if (skipSpaces(source, cursor, headerEnd) !== headerEnd) return undefined;
  let value = '';
  let lines = 0;
  let indent = -1;
  let pendingBlank = false;
  while (position < source.length) {
    const newline = lineBreak(source, position);
    const end = contentEnd(source, position, newline);
    if (end === position) {
      // An empty line: fine only between the content and the end of the block.
      if (indent === -1) return undefined;
      pendingBlank = true;
      position = newline + 1;
      continue;
    }
    const lineIndent = indentAt(source, position);
    if (lineIndent === 0) break;
    // Whitespace-only lines, leading blanks and uneven indentation have subtle rules.
    if (position + lineIndent >= end || pendingBlank) return undefined;
    if (indent === -1) indent = lineIndent;
    else if (lineIndent !== indent) return undefined;
    if (source.charCodeAt(end - 1) === SPACE) return undefined;
    const text = source.slice(position + indent, end);
    value = lines === 0 ? text : `${value}${folded ? ' ' : '\n'}${text}`;
    lines += 1;
    position = newline + 1;
  }
  if (lines === 0) return undefined;
  return { value: strip ? value : `${value}\n`, next: position };
}

interface NestedMap {
  readonly value: FrontmatterMap;
  readonly children: Map<string, FieldLocation>;
  readonly firstKeyOffset: number;
  readonly next: number;
}

/** Reads one level of `  key: value` lines below a `key:` line. */
function scanNestedMap(source: string, start: number): NestedMap | undefined {
  const value: Record<string, FrontmatterValue> = {};
  const children = new Map<string, FieldLocation>();
  let indent = -1;
  let firstKeyOffset = -1;
  let position = start;
  while (position < source.length) {
    const newline = lineBreak(source, position);
    const end = contentEnd(source, position, newline);
    const lineIndent = indentAt(source, position);
    const keyStart = position + lineIndent;
    if (keyStart >= end) {
      position = newline + 1;
      continue;
    }
    if (lineIndent === 0) break;
    if (indent === -1) indent = lineIndent;
    else if (lineIndent !== indent) return undefined;
    if (source.charCodeAt(keyStart) === HASH) {
      if (firstKeyOffset === -1) return undefined;
      position = newline + 1;
      continue;
    }
    const afterColon = scanKey(source, keyStart, end);
    if (afterColon === -1) return undefined;
    const key = source.slice(keyStart, afterColon - 1);
    if (key === PROTO_KEY || children.has(key)) return undefined;
    const valueStart = skipSpaces(source, afterColon, end);
    if (valueStart === end) return undefined;
    const entry = scanInlineValue(source, valueStart, end);
    if (entry === undefined) return undefined;
    value[key] = entry;
    children.set(key, { keyOffset: keyStart, valueOffset: valueStart });
    if (firstKeyOffset === -1) firstKeyOffset = keyStart;
    position = newline + 1;
  }
  if (firstKeyOffset === -1) return undefined;
  return { value: withoutPrototype(value), children, firstKeyOffset, next: position };
}

/** Parses the plain subset of frontmatter, or returns undefined to defer to the YAML library. */
export function parseYamlFast(source: string): YamlResult | undefined {
  if (suspectCharacter.test(source) && unsafeCharacter.test(source)) return undefined;
  const data: Record<string, FrontmatterValue> = {};
  const locations = new Map<string, FieldLocation>();
  let position = 0;
  let count = 0;
  while (position < source.length) {
    const newline = lineBreak(source, position);
    const end = contentEnd(source, position, newline);
    const first = source.charCodeAt(position);
    if (position === end || first === HASH) {
      position = newline + 1;
      continue;
    }
    if (first === SPACE) {
      if (skipSpaces(source, position, end) === end) {
        position = newline + 1;
        continue;
      }
      return undefined;
    }
    const afterColon = scanKey(source, position, end);
    if (afterColon === -1) return undefined;
    const key = source.slice(position, afterColon - 1);
    if (key === PROTO_KEY || locations.has(key)) return undefined;
    const valueStart = skipSpaces(source, afterColon, end);
    if (valueStart === end) {
      const nested = scanNestedMap(source, newline + 1);
      if (nested === undefined) return undefined;
      data[key] = nested.value;
      locations.set(key, {
        keyOffset: position,
        valueOffset: nested.firstKeyOffset,
        children: nested.children,
      });
      position = nested.next;
      count += 1;
      continue;
    }
    const indicator = source.charCodeAt(valueStart);
    if (indicator === PIPE || indicator === GREATER) {
      const block = scanBlockScalar(source, valueStart, end, newline + 1);
      if (block === undefined) return undefined;
      data[key] = block.value;
      locations.set(key, { keyOffset: position, valueOffset: valueStart });
      position = block.next;
      count += 1;
      continue;
    }
    const value = scanInlineValue(source, valueStart, end);
    if (value === undefined) return undefined;
    // The next non-blank line must start a new key: an indented one would continue this value.
    const following = nextContentLine(source, newline + 1);
    if (following < source.length && source.charCodeAt(following) === SPACE) return undefined;
    data[key] = value;
    locations.set(key, { keyOffset: position, valueOffset: valueStart });
    position = newline + 1;
    count += 1;
  }
  if (count === 0) return undefined;
  return { data: withoutPrototype(data), locations, problems: [], fast: true };
}
