/**
 * Just enough TOML to edit a client's configuration without losing a byte of the rest: a scanner
 * that finds every statement (table headers and `key = value` lines, values spanning lines
 * included) and the key path it sets, so that the tables of one entry can be replaced and
 * everything else, comments and formatting included, kept as written. It checks the structure
 * (strings, brackets, keys); a file it cannot follow is refused, never rewritten.
 */

/** One statement of a TOML document: where it is and which key path it defines. */
interface Statement {
  readonly kind: 'table' | 'array-table' | 'pair';
  /** Index of its first character, and one past its last line's end. */
  readonly start: number;
  readonly end: number;
  /** The full key path: the header's, or the current table's plus the pair's key. */
  readonly path: readonly string[];
}

class TomlError extends Error {}

const BARE = /[A-Za-z0-9_-]/;

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index += 1)
    if (text.charCodeAt(index) === 10) line += 1;
  return line;
}

class Scanner {
  readonly text: string;
  index = 0;

  constructor(text: string) {
    this.text = text;
  }

  fail(message: string): never {
    throw new TomlError(`line ${lineOf(this.text, this.index)}: ${message}`);
  }

  peek(offset = 0): string {
    return this.text[this.index + offset] ?? '';
  }

  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.index);
  }

  /** Spaces and tabs. */
  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.index += 1;
  }

  /** Spaces, tabs, newlines and comments (inside arrays). */
  skipSpace(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() === '#') this.skipComment();
      else if (this.peek() === '\n' || this.startsWith('\r\n'))
        this.index += this.peek() === '\n' ? 1 : 2;
      else return;
    }
  }

  skipComment(): void {
    while (this.index < this.text.length && this.peek() !== '\n') this.index += 1;
  }

  /** The end of a line: blanks, an optional comment, then a newline or the end. */
  endLine(): void {
    this.skipBlanks();
    if (this.peek() === '#') this.skipComment();
    if (this.startsWith('\r\n')) this.index += 2;
    else if (this.peek() === '\n') this.index += 1;
    else if (this.index < this.text.length) this.fail(`unexpected ${JSON.stringify(this.peek())}`);
  }

  string(): string {
    const quote = this.peek();
    const multi = this.startsWith(quote.repeat(3));
    this.index += multi ? 3 : 1;
    const from = this.index;
    for (;;) {
      if (this.index >= this.text.length) this.fail('a string is not closed');
      const character = this.peek();
      if (character === quote && (!multi || this.startsWith(quote.repeat(3)))) {
        // A multi-line string may end with one or two quotes of its own before the three.
        let run = 0;
        while (multi && run < 5 && this.peek(run) === quote) run += 1;
        const value = this.text.slice(from, this.index + (multi ? run - 3 : 0));
        this.index += multi ? run : 1;
        return value;
      }
      if (!multi && character === '\n') this.fail('a string is not closed on its line');
      this.index += quote === '"' && character === '\\' ? 2 : 1;
    }
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlanks();
      const character = this.peek();
      if (character === '"' || character === "'") {
        if (this.startsWith(character.repeat(3))) this.fail('a key cannot be a multi-line string');
        parts.push(this.string());
      } else {
        const from = this.index;
        while (BARE.test(this.peek())) this.index += 1;
        if (this.index === from) this.fail('a key is expected');
        parts.push(this.text.slice(from, this.index));
      }
      this.skipBlanks();
      if (this.peek() !== '.') return parts;
      this.index += 1;
    }
  }

  value(): void {
    const character = this.peek();
    if (character === '"' || character === "'") {
      this.string();
      return;
    }
    if (character === '[') {
      this.index += 1;
      this.skipSpace();
      while (this.peek() !== ']') {
        this.value();
        this.skipSpace();
        if (this.peek() === ',') {
          this.index += 1;
          this.skipSpace();
        } else if (this.peek() !== ']') this.fail('an array is not closed');
      }
      this.index += 1;
      return;
    }
    if (character === '{') {
      this.index += 1;
      this.skipBlanks();
      while (this.peek() !== '}') {
        this.key();
        if (this.peek() !== '=') this.fail('= is expected in an inline table');
        this.index += 1;
        this.skipBlanks();
        this.value();
        this.skipBlanks();
        if (this.peek() === ',') {
          this.index += 1;
          this.skipBlanks();
        } else if (this.peek() !== '}') this.fail('an inline table is not closed on its line');
      }
      this.index += 1;
      return;
    }
    // Numbers, booleans, dates and times: the characters they are written with.
    const from = this.index;
    while (/[A-Za-z0-9_+.:-]/.test(this.peek()) || (this.peek() === ' ' && /\d/.test(this.peek(1))))
      this.index += 1;
    if (this.index === from) this.fail('a value is expected');
  }
}

/** Every statement of a TOML document, in order; throws TomlError where the text is not TOML. */
function statements(text: string): Statement[] {
  const scanner = new Scanner(text);
  const found: Statement[] = [];
  let table: string[] = [];
  while (scanner.index < text.length) {
    scanner.skipBlanks();
    const start = scanner.index;
    const character = scanner.peek();
    if (character === '#' || character === '\n' || scanner.startsWith('\r\n') || character === '') {
      scanner.endLine();
      continue;
    }
    if (character === '[') {
      const array = scanner.startsWith('[[');
      scanner.index += array ? 2 : 1;
      table = scanner.key();
      if (!scanner.startsWith(array ? ']]' : ']')) scanner.fail('a table header is not closed');
      scanner.index += array ? 2 : 1;
      scanner.endLine();
      found.push({ kind: array ? 'array-table' : 'table', start, end: scanner.index, path: table });
      continue;
    }
    const key = scanner.key();
    if (scanner.peek() !== '=') scanner.fail('= is expected after a key');
    scanner.index += 1;
    scanner.skipBlanks();
    scanner.value();
    scanner.endLine();
    found.push({ kind: 'pair', start, end: scanner.index, path: [...table, ...key] });
  }
  return found;
}

function startsWithPath(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, index) => path[index] === part);
}

/**
 * Replaces the tables of one entry (`[a.b]` and every `[a.b.…]`) with `tables` (TOML text),
 * keeping the rest of the document as written; the new tables go where the first old one was,
 * or at the end. Throws an Error saying why when the text is not TOML this can follow, or when
 * the entry is also defined another way (an inline table, dotted keys, an array of tables),
 * which it would not dare to rewrite.
 */
export function replaceTomlTables(text: string, prefix: readonly string[], tables: string): string {
  let found: Statement[];
  try {
    found = statements(text);
  } catch (error) {
    if (error instanceof TomlError)
      throw new Error(`it is not TOML that can be read: ${error.message}`);
    throw error;
  }
  const spans: Array<[number, number]> = [];
  let open: [number, number] | undefined;
  for (const statement of found) {
    const ours = startsWithPath(statement.path, prefix);
    if (statement.kind === 'table') {
      if (open !== undefined) spans.push(open);
      open = ours ? [statement.start, statement.end] : undefined;
      continue;
    }
    if (statement.kind === 'array-table' && ours)
      throw new Error(`[[${prefix.join('.')}]] is an array of tables; edit it by hand`);
    if (statement.kind === 'array-table') {
      if (open !== undefined) spans.push(open);
      open = undefined;
      continue;
    }
    if (open !== undefined) open[1] = statement.end;
    else if (ours)
      throw new Error(
        `${prefix.join('.')} is set with dotted keys or an inline table (${statement.path.join('.')}); edit it by hand`,
      );
  }
  if (open !== undefined) spans.push(open);
  // A removed table takes the blank and comment lines after it, up to the next statement;
  // tables removed one after the other are one range.
  const ranges: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const until = found.find((statement) => statement.start >= end)?.start ?? text.length;
    const last = ranges.at(-1);
    if (last !== undefined && last[1] === start) last[1] = until;
    else ranges.push([start, until]);
  }
  const block = tables.endsWith('\n') ? tables : `${tables}\n`;
  let result = '';
  let cursor = 0;
  for (const [index, [start, until]] of ranges.entries()) {
    result += text.slice(cursor, start);
    if (index === 0) result += until < text.length ? `${block}\n` : block;
    cursor = until;
  }
  result += text.slice(cursor);
  if (ranges.length === 0) {
    if (result.length > 0 && !result.endsWith('\n')) result += '\n';
    if (result.trim().length > 0) result += '\n';
    result += block;
  }
  return result;
}

/** A TOML basic string (JSON's escapes are TOML's, for the characters JSON escapes). */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}

/** A TOML key: bare when it can be, else quoted. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
