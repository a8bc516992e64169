/**
 * Pieces of the shell's word syntax that the reader in shell-syntax.ts needs: ANSI-C quoting,
 * the characters that end a word, reserved words, and how to tell an expansion from text.
 */

/** A word of a command, after quote removal. */
export interface ShellWord {
  /** The word as the shell would pass it, when `literal`; else its text with expansions as written. */
  readonly text: string;
  /** False when part of the word is only known when the shell runs (expansion, glob, braces, ~). */
  readonly literal: boolean;
  /** True when any part was quoted or escaped (a quoted word is never a reserved word). */
  readonly quoted: boolean;
}

/** Characters that end an unquoted word. */
export const METACHARACTERS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** Reserved words the reader steps over to find the command they introduce. */
export const PREFIX_KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'do',
  'done',
  'time',
  'coproc',
]);

const simpleEscapes: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * Decodes the body of a `$'...'` string starting at `start` (just after the opening quote).
 * Returns the text and the index of the closing quote, or undefined when it never closes.
 */
export function readAnsiC(
  source: string,
  start: number,
): { text: string; end: number } | undefined {
  let text = '';
  for (let index = start; index < source.length; index += 1) {
    const character = source[index] as string;
    if (character === "'") return { text, end: index };
    if (character !== '\\') {
      text += character;
      continue;
    }
    const next = source[index + 1];
    if (next === undefined) return undefined;
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      text += simple;
      index += 1;
      continue;
    }
    const digits = (pattern: RegExp, from: number, most: number): string => {
      let found = '';
      while (found.length < most && pattern.test(source[from + found.length] ?? '')) {
        found += source[from + found.length];
      }
      return found;
    };
    if (/[0-7]/.test(next)) {
      const octal = digits(/[0-7]/, index + 1, 3);
      text += String.fromCharCode(Number.parseInt(octal, 8) & 0xff);
      index += octal.length;
      continue;
    }
    if (next === 'x' || next === 'u' || next === 'U') {
      const hex = digits(/[0-9A-Fa-f]/, index + 2, next === 'x' ? 2 : next === 'u' ? 4 : 8);
      if (hex === '') {
        text += `\\${next}`;
      } else {
        const code = Number.parseInt(hex, 16);
        text += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      index += 1 + hex.length;
      continue;
    }
    if (next === 'c') {
      const control = source[index + 2];
      if (control === undefined) return undefined;
      text += String.fromCharCode(control.toUpperCase().charCodeAt(0) & 0x1f);
      index += 2;
      continue;
    }
    text += `\\${next}`;
    index += 1;
  }
  return undefined;
}

/**
 * True when the unquoted characters of a word (quoted ones masked as NUL) hold a brace
 * expansion: `{a,b}` or `{1..3}`; `{}` (find) and `@{0}` (git) are left alone.
 */
export function hasBraceExpansion(unquoted: string): boolean {
  // One pass: the innermost open brace, and whether a comma or `..` followed it (linear, so a
  // long word cannot make the reader slow).
  let open = -1;
  let separated = false;
  for (let index = 0; index < unquoted.length; index += 1) {
    const character = unquoted[index];
    if (character === '{') {
      open = index;
      separated = false;
    } else if (character === '\0') {
      open = -1;
    } else if (open !== -1 && character === '}') {
      if (separated) return true;
      open = -1;
    } else if (
      open !== -1 &&
      (character === ',' || (character === '.' && unquoted[index + 1] === '.'))
    ) {
      separated = true;
    }
  }
  return false;
}

/**
 * True when a word is an assignment (`NAME=value`, `NAME+=value`, `NAME[i]=value`), judged on its
 * unquoted characters (quoted ones masked as NUL): `'A'=1` is a word, not an assignment.
 */
export function isAssignment(unquoted: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(unquoted);
}

/** Where a program's name ends and its base name starts: `/usr/bin/curl` → `curl`. */
export function baseName(program: string): string {
  const trimmed = program.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
