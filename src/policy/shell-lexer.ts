import { hasBraceExpansion, METACHARACTERS, readAnsiC, type ShellWord } from './shell-words.js';

/** One simple command the shell would run, wherever it sits in the command line. */
export interface ShellCommand {
  /** The program and its arguments (assignments, redirections and reserved words left out). */
  readonly words: readonly ShellWord[];
  /** `NAME=value` words before the program. */
  readonly assignments: readonly ShellWord[];
  /** Where it runs: `the command` at the top level, else e.g. `a command substitution`. */
  readonly where: string;
  /** True for the commands of the command line itself, false inside a substitution or subshell. */
  readonly topLevel: boolean;
}

/** A command line read the way a POSIX shell (bash) reads it. */
export interface ShellParse {
  /** Every simple command, at any depth, in the order they were read. */
  readonly commands: readonly ShellCommand[];
  /** Why the command line is more than plain commands joined by ; && || | (empty when it is not). */
  readonly problems: readonly string[];
  /** Why a program might run that cannot be named from the text (empty when every one can). */
  readonly opaque: readonly string[];
}

/** Deeper nesting than this is not followed: it is reported as opaque. */
export const MAX_DEPTH = 24;

export interface Collected {
  readonly commands: ShellCommand[];
  readonly problems: Set<string>;
  readonly opaque: Set<string>;
  pending: Array<{ delimiter: string; expand: boolean; strip: boolean }>;
}

/** What a list of commands is read for: where it runs, and what closes it. */
export interface ListContext {
  readonly where: string;
  readonly topLevel: boolean;
  /** The character that closes this list (`)` for a substitution or subshell). */
  readonly close?: ')';
}

const redirection = /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(?:<<<|<<-|<<|<>|<&|>&|>>|>\||&>>|&>|<|>)/;

/** The redirection operator at the start of `text`, if any (`2>`, `&>>`, `<<-`, `{fd}>`). */
export function redirectionAt(text: string): string | undefined {
  return redirection.exec(text)?.[0];
}

/**
 * The word-level half of the shell reader: quotes, escapes, expansions, substitutions,
 * redirections and here-documents. The command-level half (shell-syntax.ts) extends it.
 */
export abstract class ShellLexer {
  protected position = 0;
  /** How many lists (substitutions, subshells) this reader is inside now. */
  protected nesting = 0;

  constructor(
    readonly source: string,
    readonly depth: number,
    readonly collected: Collected,
  ) {}

  /** Reads commands until the end, or the closing character; true when it was closed. */
  abstract readList(context: ListContext): boolean;

  /** A reader of other text (a backtick body, a here-document) that reports to the same place. */
  protected abstract child(text: string): ShellLexer;

  protected get character(): string | undefined {
    return this.source[this.position];
  }

  protected problem(reason: string): void {
    this.collected.problems.add(reason);
  }

  protected opaque(reason: string): void {
    this.collected.opaque.add(reason);
    this.collected.problems.add(reason);
  }

  protected skipBlanks(): void {
    while (this.character === ' ' || this.character === '\t') this.position += 1;
  }

  /** Reads commands until the end, or the closing character; true when it was closed. */
  protected skipComment(): void {
    const newline = this.source.indexOf('\n', this.position);
    this.position = newline === -1 ? this.source.length : newline;
  }

  /** The unquoted characters of the word last read (quoted ones as NUL). */
  protected lastMask = '';

  protected readWord(where: string): ShellWord {
    let text = '';
    let mask = '';
    let literal = true;
    let quoted = false;
    while (this.position < this.source.length) {
      const character = this.source[this.position] as string;
      if (METACHARACTERS.has(character)) break;
      if (character === '\\') {
        const next = this.source[this.position + 1];
        if (next === undefined) {
          text += '\\';
          mask += '\\';
          this.position += 1;
          continue;
        }
        this.position += 2;
        if (next === '\n') continue;
        text += next;
        mask += '\0';
        quoted = true;
        continue;
      }
      if (character === "'") {
        const close = this.source.indexOf("'", this.position + 1);
        quoted = true;
        if (close === -1) {
          this.opaque('an unclosed quote');
          text += this.source.slice(this.position + 1);
          this.position = this.source.length;
          literal = false;
          break;
        }
        const inner = this.source.slice(this.position + 1, close);
        text += inner;
        mask += '\0'.repeat(inner.length);
        this.position = close + 1;
        continue;
      }
      if (character === '"') {
        const part = this.readDoubleQuoted(where);
        text += part.text;
        mask += '\0'.repeat(part.text.length);
        literal &&= part.literal;
        quoted = true;
        continue;
      }
      if (character === '$') {
        const part = this.readDollar(where, false);
        text += part.text;
        mask += part.quoted ? '\0'.repeat(part.text.length) : part.text;
        literal &&= part.literal;
        quoted ||= part.quoted;
        continue;
      }
      if (character === '`') {
        this.readBackticks();
        text += '`…`';
        mask += '\0\0\0';
        literal = false;
        continue;
      }
      if (character === '~' && text === '') {
        literal = false;
        this.problem('a home-directory expansion');
      }
      text += character;
      mask += character;
      this.position += 1;
    }
    const bracket = mask.indexOf('[');
    if (/[*?]/.test(mask) || (bracket !== -1 && mask.lastIndexOf(']') > bracket)) {
      literal = false;
      this.problem('a glob pattern');
    }
    if (hasBraceExpansion(mask)) {
      literal = false;
      this.problem('a brace expansion');
    }
    this.lastMask = mask;
    return { text, literal, quoted };
  }

  protected readDoubleQuoted(where: string): { text: string; literal: boolean } {
    this.position += 1;
    let text = '';
    let literal = true;
    for (;;) {
      const character = this.character;
      if (character === undefined) {
        this.opaque('an unclosed quote');
        return { text, literal: false };
      }
      if (character === '"') {
        this.position += 1;
        return { text, literal };
      }
      if (character === '\\') {
        const next = this.source[this.position + 1];
        if (next !== undefined && '$`"\\\n'.includes(next)) {
          if (next !== '\n') text += next;
          this.position += 2;
        } else {
          text += '\\';
          this.position += 1;
        }
        continue;
      }
      if (character === '$') {
        const part = this.readDollar(where, true);
        text += part.text;
        literal &&= part.literal;
        continue;
      }
      if (character === '`') {
        this.readBackticks();
        text += '`…`';
        literal = false;
        continue;
      }
      text += character;
      this.position += 1;
    }
  }

  /** An expanded here-document body: like double quotes, but a `"` is only a character. */
  protected readExpandedBody(where: string): void {
    while (this.position < this.source.length) {
      const character = this.source[this.position] as string;
      if (character === '\\') this.position += 2;
      else if (character === '$') this.readDollar(where, true);
      else if (character === '`') this.readBackticks();
      else this.position += 1;
    }
  }

  protected readDollar(
    where: string,
    inDoubleQuotes: boolean,
  ): { text: string; literal: boolean; quoted: boolean } {
    const next = this.source[this.position + 1];
    if (!inDoubleQuotes && next === "'") {
      const decoded = readAnsiC(this.source, this.position + 2);
      if (decoded === undefined) {
        this.opaque('an unclosed quote');
        this.position = this.source.length;
        return { text: '', literal: false, quoted: true };
      }
      this.position = decoded.end + 1;
      return { text: decoded.text, literal: true, quoted: true };
    }
    if (!inDoubleQuotes && next === '"') {
      this.position += 1;
      return { ...this.readDoubleQuoted(where), quoted: true };
    }
    if (next === '(') {
      const start = this.position;
      const arithmetic = this.source[this.position + 2] === '(';
      this.position += 2;
      this.problem('a substitution or expansion');
      const label = arithmetic ? 'an arithmetic expansion' : 'a command substitution';
      if (!this.readList({ where: label, topLevel: false, close: ')' }))
        this.opaque('an unclosed substitution');
      if (arithmetic && /[A-Za-z$`]/.test(this.source.slice(start + 3, this.position)))
        this.opaque('an arithmetic expansion (which can run commands through variables)');
      return { text: '$(…)', literal: false, quoted: false };
    }
    if (next === '{') {
      this.position += 2;
      this.problem('a substitution or expansion');
      this.readParameter(where);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${...}, as written
      return { text: '${…}', literal: false, quoted: false };
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(
      this.source.slice(this.position + 1, this.position + 200),
    );
    if (name !== null) {
      this.position += 1 + name[0].length;
      this.problem('a substitution or expansion');
      return { text: `$${name[0]}`, literal: false, quoted: false };
    }
    this.position += 1;
    return { text: '$', literal: true, quoted: false };
  }

  /** `${...}`: to its closing brace, reading the substitutions and quotes inside. */
  protected readParameter(where: string): void {
    let depth = 1;
    while (this.position < this.source.length) {
      const character = this.source[this.position] as string;
      if (character === '\\') this.position += 2;
      else if (character === "'") {
        const close = this.source.indexOf("'", this.position + 1);
        this.position = close === -1 ? this.source.length : close + 1;
      } else if (character === '"') this.readDoubleQuoted(where);
      else if (character === '$') this.readDollar(where, false);
      else if (character === '`') this.readBackticks();
      else {
        this.position += 1;
        if (character === '{') depth += 1;
        else if (character === '}') {
          depth -= 1;
          if (depth === 0) return;
        }
      }
    }
    this.opaque('an unclosed ${');
  }

  protected readBackticks(): void {
    this.problem('a substitution or expansion');
    this.position += 1;
    let inner = '';
    for (;;) {
      const character = this.character;
      if (character === undefined) {
        this.opaque('an unclosed substitution');
        break;
      }
      const next = this.source[this.position + 1];
      if (character === '\\' && next !== undefined && '`\\$'.includes(next)) {
        inner += next;
        this.position += 2;
        continue;
      }
      this.position += 1;
      if (character === '`') break;
      inner += character;
    }
    this.child(inner).readList({
      where: 'a command substitution',
      topLevel: false,
    });
  }

  protected readProcessSubstitution(): ShellWord {
    this.position += 2;
    this.problem('a process substitution');
    if (!this.readList({ where: 'a process substitution', topLevel: false, close: ')' }))
      this.opaque('an unclosed substitution');
    return { text: '<(…)', literal: false, quoted: false };
  }

  protected readRedirection(operator: string, where: string): void {
    this.position += operator.length;
    this.skipBlanks();
    if (operator.endsWith('<<') || operator.endsWith('<<-')) {
      this.problem('a here-document');
      const delimiter = this.readWord(where);
      if (delimiter.text === '') this.opaque('a here-document without a delimiter');
      this.collected.pending.push({
        delimiter: delimiter.text,
        expand: !delimiter.quoted,
        strip: operator.endsWith('<<-'),
      });
      return;
    }
    this.problem(operator.endsWith('<<<') ? 'a here-string' : 'a redirection');
    const character = this.character;
    if ((character === '<' || character === '>') && this.source[this.position + 1] === '(') {
      this.readProcessSubstitution();
      return;
    }
    const start = this.position;
    this.readWord(where);
    if (this.position === start) this.opaque('a redirection without a target');
  }

  /** After a newline: the bodies of the here-documents opened on the line just read. */
  protected readHereDocuments(where: string): void {
    const pending = this.collected.pending;
    this.collected.pending = [];
    for (const document of pending) {
      let body = '';
      let closed = false;
      while (this.position < this.source.length) {
        const newline = this.source.indexOf('\n', this.position);
        const end = newline === -1 ? this.source.length : newline;
        const line = this.source.slice(this.position, end);
        this.position = newline === -1 ? end : end + 1;
        if ((document.strip ? line.replace(/^\t+/, '') : line) === document.delimiter) {
          closed = true;
          break;
        }
        body += `${line}\n`;
      }
      if (!closed) this.problem('a here-document without its closing line');
      // An unquoted delimiter means the body is expanded: its substitutions run.
      if (document.expand) {
        this.child(body).readExpandedBody(where === 'the command' ? 'a here-document' : where);
      }
    }
  }
}
