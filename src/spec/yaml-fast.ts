import type { FieldLocation, FrontmatterMap, FrontmatterValue, YamlResult } from './yaml-types.js';

/**
 * A scanner for the plain subset of frontmatter that real skills almost always use:
 * `key: value` lines with plain, single-quoted or double-quoted (escape-free) one-line values,
 * `|`/`>` block scalars with uniform indentation, and one nested mapping level (metadata).
 *
 * It returns undefined for anything else, and the caller hands the text to the YAML library.
 * Whatever it accepts, it must read exactly as the library does: the differential property
 * tests in test/spec/yaml-fast.property.test.ts hold it to that.
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
const LF = 10;

/** Characters that may not start a plain scalar (YAML indicators), plus space. */
const plainStartForbidden = new Set('-?:,[]{}#&*!|>\'"%@` '.split('').map((c) => c.charCodeAt(0)));

/** True when the text holds only characters the scanner knows the library treats plainly. */
function hasOnlySafeCharacters(source: string): boolean {
  for (let index = 0; index < source.length; index += 1) {
    const code = source.charCodeAt(index);
    if (code < 0x20) {
      if (code === LF) continue;
      if (code === CR && source.charCodeAt(index + 1) === LF) continue;
      return false;
    }
    if (code < 0x7f) continue;
    if (code <= 0x9f) return false;
    if (
      code === 0x2028 ||
      code === 0x2029 ||
      code === 0xfeff ||
      code === 0xfffe ||
      code === 0xffff
    ) {
      return false;
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = source.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index += 1;
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

interface Line {
  readonly start: number;
  /** End of the content, before any `\r\n` or `\n`. */
  readonly end: number;
  /** Start of the next line, or the text length. */
  readonly next: number;
}

function readLine(source: string, start: number): Line {
  const newline = source.indexOf('\n', start);
  const next = newline === -1 ? source.length : newline + 1;
  let end = newline === -1 ? source.length : newline;
  if (end > start && source.charCodeAt(end - 1) === CR) end -= 1;
  return { start, end, next };
}

function indentOf(source: string, line: Line): number {
  let index = line.start;
  while (index < line.end && source.charCodeAt(index) === SPACE) index += 1;
  return index - line.start;
}

function isBlankLine(source: string, line: Line): boolean {
  return indentOf(source, line) === line.end - line.start;
}

/** Scans `key:` at `start`; returns the offset just past the colon, or -1. */
function scanKey(source: string, start: number, end: number): number {
  let index = start;
  const first = source.charCodeAt(index);
  const isLetter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122) || first === 95;
  if (!isLetter) return -1;
  index += 1;
  while (index < end) {
    const code = source.charCodeAt(index);
    const isKeyCharacter =
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      code === 95 ||
      code === MINUS;
    if (!isKeyCharacter) break;
    index += 1;
  }
  if (source.charCodeAt(index) !== COLON) return -1;
  const after = index + 1;
  if (after < end && source.charCodeAt(after) !== SPACE) return -1;
  return after;
}

function skipSpaces(source: string, index: number, end: number): number {
  let cursor = index;
  while (cursor < end && source.charCodeAt(cursor) === SPACE) cursor += 1;
  return cursor;
}

/** Reads a one-line flow or plain value occupying [start, end); undefined when out of subset. */
function scanInlineValue(source: string, start: number, end: number): string | undefined {
  const first = source.charCodeAt(start);
  if (first === DOUBLE_QUOTE) {
    const close = source.indexOf('"', start + 1);
    if (close === -1 || close >= end) return undefined;
    const content = source.slice(start + 1, close);
    if (content.includes('\\')) return undefined;
    if (skipSpaces(source, close + 1, end) !== end) return undefined;
    return content;
  }
  if (first === SINGLE_QUOTE) {
    let result = '';
    let index = start + 1;
    for (;;) {
      const quote = source.indexOf("'", index);
      if (quote === -1 || quote >= end) return undefined;
      result += source.slice(index, quote);
      if (source.charCodeAt(quote + 1) === SINGLE_QUOTE) {
        result += "'";
        index = quote + 2;
        continue;
      }
      if (skipSpaces(source, quote + 1, end) !== end) return undefined;
      return result;
    }
  }
  if (plainStartForbidden.has(first)) return undefined;
  let valueEnd = end;
  while (valueEnd > start && source.charCodeAt(valueEnd - 1) === SPACE) valueEnd -= 1;
  const value = source.slice(start, valueEnd);
  if (
    value.includes(': ') ||
    value.includes(' #') ||
    value.charCodeAt(value.length - 1) === COLON
  ) {
    return undefined;
  }
  return value;
}

interface BlockScalar {
  readonly value: string;
  readonly next: number;
}

/** Reads a `|`, `|-`, `>` or `>-` block scalar whose header line ends at `headerEnd`. */
function scanBlockScalar(
  source: string,
  indicatorOffset: number,
  headerEnd: number,
  headerNext: number,
): BlockScalar | undefined {
  const folded = source.charCodeAt(indicatorOffset) === GREATER;
  let cursor = indicatorOffset + 1;
  let strip = false;
  if (source.charCodeAt(cursor) === MINUS) {
    strip = true;
    cursor += 1;
  }
  if (skipSpaces(source, cursor, headerEnd) !== headerEnd) return undefined;
  const lines: string[] = [];
  let indent = -1;
  let position = headerNext;
  let pendingBlank = false;
  while (position < source.length) {
    const line = readLine(source, position);
    if (isBlankLine(source, line)) {
      if (line.end !== line.start || indent === -1) {
        // Whitespace-only lines and leading blank lines have subtle rules: leave them to the library.
        return undefined;
      }
      pendingBlank = true;
      position = line.next;
      continue;
    }
    const lineIndent = indentOf(source, line);
    if (lineIndent === 0) break;
    if (indent === -1) indent = lineIndent;
    if (lineIndent !== indent || pendingBlank) return undefined;
    if (source.charCodeAt(line.end - 1) === SPACE) return undefined;
    lines.push(source.slice(line.start + indent, line.end));
    position = line.next;
  }
  if (lines.length === 0) return undefined;
  const joined = lines.join(folded ? ' ' : '\n');
  return { value: strip ? joined : `${joined}\n`, next: position };
}

interface NestedMap {
  readonly value: FrontmatterMap;
  readonly children: Map<string, FieldLocation>;
  readonly firstKeyOffset: number;
  readonly next: number;
}

/** Reads one level of `  key: value` lines below a `key:` line. */
function scanNestedMap(source: string, start: number): NestedMap | undefined {
  const value: Record<string, FrontmatterValue> = Object.create(null);
  const children = new Map<string, FieldLocation>();
  let indent = -1;
  let firstKeyOffset = -1;
  let position = start;
  while (position < source.length) {
    const line = readLine(source, position);
    if (isBlankLine(source, line)) {
      position = line.next;
      continue;
    }
    const lineIndent = indentOf(source, line);
    if (lineIndent === 0) break;
    if (indent === -1) indent = lineIndent;
    if (lineIndent !== indent) return undefined;
    const keyStart = line.start + indent;
    if (source.charCodeAt(keyStart) === HASH) {
      if (firstKeyOffset === -1) return undefined;
      position = line.next;
      continue;
    }
    const afterColon = scanKey(source, keyStart, line.end);
    if (afterColon === -1) return undefined;
    const key = source.slice(keyStart, afterColon - 1);
    if (key in value) return undefined;
    const valueStart = skipSpaces(source, afterColon, line.end);
    if (valueStart === line.end) return undefined;
    const entry = scanInlineValue(source, valueStart, line.end);
    if (entry === undefined) return undefined;
    value[key] = entry;
    children.set(key, { keyOffset: keyStart, valueOffset: valueStart });
    if (firstKeyOffset === -1) firstKeyOffset = keyStart;
    position = line.next;
  }
  if (firstKeyOffset === -1) return undefined;
  return { value, children, firstKeyOffset, next: position };
}

/**
 * After a one-line value, the next non-blank line must not be indented deeper than the value's
 * own key, or it would continue the value (multi-line plain scalar) in the library's reading.
 */
function followedByNonContinuation(source: string, start: number, keyIndent: number): boolean {
  let position = start;
  while (position < source.length) {
    const line = readLine(source, position);
    if (!isBlankLine(source, line)) return indentOf(source, line) <= keyIndent;
    position = line.next;
  }
  return true;
}

/** Parses the plain subset of frontmatter, or returns undefined to defer to the YAML library. */
export function parseYamlFast(source: string): YamlResult | undefined {
  if (!hasOnlySafeCharacters(source)) return undefined;
  const data: Record<string, FrontmatterValue> = Object.create(null);
  const locations = new Map<string, FieldLocation>();
  let position = 0;
  let count = 0;
  while (position < source.length) {
    const line = readLine(source, position);
    const first = source.charCodeAt(line.start);
    if (isBlankLine(source, line) || first === HASH) {
      position = line.next;
      continue;
    }
    if (first === SPACE) return undefined;
    const afterColon = scanKey(source, line.start, line.end);
    if (afterColon === -1) return undefined;
    const key = source.slice(line.start, afterColon - 1);
    if (key in data) return undefined;
    const valueStart = skipSpaces(source, afterColon, line.end);
    if (valueStart === line.end) {
      const nested = scanNestedMap(source, line.next);
      if (nested === undefined) return undefined;
      data[key] = nested.value;
      locations.set(key, {
        keyOffset: line.start,
        valueOffset: nested.firstKeyOffset,
        children: nested.children,
      });
      position = nested.next;
      count += 1;
      continue;
    }
    const indicator = source.charCodeAt(valueStart);
    if (indicator === PIPE || indicator === GREATER) {
      const block = scanBlockScalar(source, valueStart, line.end, line.next);
      if (block === undefined) return undefined;
      data[key] = block.value;
      locations.set(key, { keyOffset: line.start, valueOffset: valueStart });
      position = block.next;
      count += 1;
      continue;
    }
    const value = scanInlineValue(source, valueStart, line.end);
    if (value === undefined) return undefined;
    if (!followedByNonContinuation(source, line.next, 0)) return undefined;
    data[key] = value;
    locations.set(key, { keyOffset: line.start, valueOffset: valueStart });
    position = line.next;
    count += 1;
  }
  if (count === 0) return undefined;
  return { data, locations, problems: [], fast: true };
}
