import type { Code } from '../codes.js';

export interface FrontmatterParts {
  readonly ok: true;
  /** The YAML between the delimiter lines (may be empty). */
  readonly frontmatter: string;
  /** UTF-16 offset of the first frontmatter character in the text. */
  readonly frontmatterOffset: number;
  /** Everything after the closing delimiter line. */
  readonly body: string;
  readonly bodyOffset: number;
  /** 1-based line of the first body line. */
  readonly bodyLine: number;
}

export interface FrontmatterProblem {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
  /** UTF-16 offset the problem points at. */
  readonly offset: number;
}

/** Length of a delimiter line starting at `start` (`---`, then spaces, then an optional `\r`), or -1. */
function delimiterLineEnd(text: string, start: number): number {
  if (
    text.charCodeAt(start) !== 45 ||
    text.charCodeAt(start + 1) !== 45 ||
    text.charCodeAt(start + 2) !== 45
  ) {
    return -1;
  }
  let index = start + 3;
  while (text.charCodeAt(index) === 32) index += 1;
  if (text.charCodeAt(index) === 13) index += 1;
  if (index === text.length || text.charCodeAt(index) === 10) return index;
  return -1;
}

function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return false;
  }
  return true;
}

/**
 * Splits SKILL.md text into frontmatter and body. Both delimiters are whole lines: `---`, with
 * trailing spaces and a carriage return allowed; the closing one is the first such line.
 */
export function splitFrontmatter(text: string): FrontmatterParts | FrontmatterProblem {
  if (isBlank(text)) {
    return { ok: false, code: 'FILE_EMPTY', message: 'File is empty', offset: 0 };
  }
  const openingEnd = delimiterLineEnd(text, 0);
  if (openingEnd === -1) {
    const message = text.startsWith('---')
      ? 'The first line must be exactly --- (only trailing spaces may follow)'
      : 'SKILL.md must start with a --- line that opens the YAML frontmatter';
    return { ok: false, code: 'FRONTMATTER_MISSING', message, offset: 0 };
  }
  const frontmatterOffset = openingEnd === text.length ? openingEnd : openingEnd + 1;
  let lineStart = frontmatterOffset;
  let line = 2;
  while (lineStart < text.length) {
    const closingEnd = delimiterLineEnd(text, lineStart);
    if (closingEnd !== -1) {
      const bodyOffset = closingEnd === text.length ? closingEnd : closingEnd + 1;
      return {
        ok: true,
        frontmatter: text.slice(frontmatterOffset, lineStart),
        frontmatterOffset,
        body: text.slice(bodyOffset),
        bodyOffset,
        bodyLine: line + 1,
      };
    }
    const next = text.indexOf('\n', lineStart);
    if (next === -1) break;
    lineStart = next + 1;
    line += 1;
  }
  return {
    ok: false,
    code: 'FRONTMATTER_UNCLOSED',
    message: 'The frontmatter opened on line 1 has no closing --- line',
    offset: 0,
  };
}
