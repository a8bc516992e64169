import {
  type Collected,
  type ListContext,
  MAX_DEPTH,
  redirectionAt,
  ShellLexer,
  type ShellParse,
} from './shell-lexer.js';
import { isAssignment, METACHARACTERS, PREFIX_KEYWORDS, type ShellWord } from './shell-words.js';

export type { ShellCommand, ShellParse } from './shell-lexer.js';
export type { ShellWord } from './shell-words.js';

const arithmeticTest = /^-(?:eq|ne|lt|le|gt|ge)$/;

/** Reads one piece of text (the command line, or the body of a backtick substitution). */
class Reader extends ShellLexer {
  protected child(text: string): ShellLexer {
    return new Reader(text, this.depth + 1, this.collected);
  }

  override readList(context: ListContext): boolean {
    // Substitutions and subshells nest within one reader; backticks and here-documents nest
    // through child readers: both count.
    if (this.depth + this.nesting > MAX_DEPTH) {
      this.opaque('nesting too deep to follow');
      this.position = this.source.length;
      return false;
    }
    this.nesting += 1;
    try {
      return this.readCommands(context);
    } finally {
      this.nesting -= 1;
    }
  }

  private readCommands(context: ListContext): boolean {
    let words: ShellWord[] = [];
    let assignments: ShellWord[] = [];
    let mode: 'command' | 'for' | 'case' | 'pattern' | 'function' | 'test' = 'command';
    let cases = 0;
    let afterTime = false;
    const finish = () => {
      if (words.length > 0) {
        this.collected.commands.push({
          words,
          assignments,
          where: context.where,
          topLevel: context.topLevel,
        });
      }
      words = [];
      assignments = [];
      afterTime = false;
      if (mode === 'for' || mode === 'function') mode = 'command';
    };
    for (;;) {
      this.skipBlanks();
      const character = this.character;
      if (character === undefined) break;
      if (mode === 'pattern') {
        if (character === '\n') {
          this.position += 1;
          this.readHereDocuments(context.where);
        } else if (/^esac(?=[\s;&|)]|$)/.test(this.source.slice(this.position))) {
          this.position += 4;
          cases -= 1;
          mode = 'command';
        } else if (character === '(' || character === '|') this.position += 1;
        else if (character === ')') {
          this.position += 1;
          mode = 'command';
        } else if (METACHARACTERS.has(character)) this.position += 1;
        else this.readWord(context.where);
        continue;
      }
      if (mode === 'test') {
        if (character === '\n' || '&|<>()!'.includes(character)) {
          this.position += 1;
          continue;
        }
        const word = this.readWord(context.where);
        if (!word.quoted && word.text === ']]') mode = 'command';
        else if (!word.literal || arithmeticTest.test(word.text))
          this.opaque('a [[ ]] test that evaluates arithmetic (which can run commands)');
        continue;
      }
      if (character === '#') {
        // The loop is always at the start of a word here: a # there starts a comment.
        this.skipComment();
        continue;
      }
      if (character === '\n') {
        finish();
        this.position += 1;
        this.readHereDocuments(context.where);
        continue;
      }
      const rest = this.source.slice(this.position, this.position + 24);
      if ((character === '<' || character === '>') && this.source[this.position + 1] === '(') {
        words.push(this.readProcessSubstitution());
        continue;
      }
      const redirect = redirectionAt(rest);
      if (redirect !== undefined && (character !== '&' || rest.startsWith('&>'))) {
        this.readRedirection(redirect, context.where);
        continue;
      }
      if (character === ';' || character === '&' || character === '|') {
        const operator = /^(?:;;&|;;|;&|&&|\|\||\|&|;|&|\|)/.exec(rest)?.[0] ?? character;
        this.position += operator.length;
        finish();
        if (operator.startsWith(';;') || operator === ';&') {
          if (cases > 0) mode = 'pattern';
          else this.opaque('a stray ;;');
        }
        continue;
      }
      if (character === ')') {
        this.position += 1;
        if (context.close === ')') {
          finish();
          return true;
        }
        this.opaque('an unbalanced parenthesis');
        continue;
      }
      if (character === '(') {
        if (words.length === 1 && /^\(\s*\)/.test(this.source.slice(this.position))) {
          // name () { body; }: a function definition; its body is read as commands.
          this.position = this.source.indexOf(')', this.position) + 1;
          words = [];
          this.problem('a function definition');
          continue;
        }
        if (words.length > 0 || assignments.length > 0) {
          this.position += 1;
          this.opaque('an unexpected parenthesis');
          continue;
        }
        const start = this.position;
        const arithmetic = this.source[this.position + 1] === '(';
        this.position += 1;
        this.problem(arithmetic ? 'an arithmetic command' : 'a subshell or group');
        if (!this.readList({ where: 'a subshell', topLevel: false, close: ')' }))
          this.opaque('an unclosed subshell');
        if (arithmetic && /[A-Za-z$`]/.test(this.source.slice(start, this.position)))
          this.opaque('an arithmetic command (which can run commands through variables)');
        continue;
      }
      const start = this.position;
      const word = this.readWord(context.where);
      if (this.position === start) {
        // Nothing could be read here (a character the reader does not expect): fail closed.
        this.position += 1;
        this.opaque(`an unexpected character ${JSON.stringify(character)}`);
        continue;
      }
      const plain = word.literal && !word.quoted;
      if (mode === 'for') {
        if (plain && word.text === 'do') mode = 'command';
        continue;
      }
      if (mode === 'function') {
        mode = 'command';
        continue;
      }
      if (mode === 'case') {
        if (plain && word.text === 'in') mode = 'pattern';
        continue;
      }
      if (words.length === 0 && assignments.length === 0 && plain) {
        if (afterTime && word.text === '-p') continue;
        if (PREFIX_KEYWORDS.has(word.text)) {
          this.problem(
            word.text === '{' || word.text === '}' ? 'a subshell or group' : 'a compound command',
          );
          afterTime = word.text === 'time';
          continue;
        }
        if (word.text === 'for' || word.text === 'select') {
          this.problem('a compound command');
          mode = 'for';
          continue;
        }
        if (word.text === 'case') {
          this.problem('a compound command');
          cases += 1;
          mode = 'case';
          continue;
        }
        if (word.text === 'esac' && cases > 0) {
          cases -= 1;
          continue;
        }
        if (word.text === 'function') {
          this.problem('a function definition');
          mode = 'function';
          continue;
        }
        if (word.text === '[[') {
          this.problem('a [[ ]] test');
          mode = 'test';
          continue;
        }
      }
      if (words.length === 0 && isAssignment(this.lastMask)) {
        assignments.push(word);
        this.problem('an environment assignment');
        continue;
      }
      words.push(word);
    }
    finish();
    if (context.close !== undefined) return false;
    return true;
  }
}

/**
 * Reads a command line as bash would: words after quote removal (`'c'url`, `c\url` and
 * `$'\x63url'` are all `curl`), the commands of chains, pipes, subshells, groups, compound
 * commands, command and process substitutions and expanded here-documents, and what keeps the
 * line from being plain words. Never throws: what it cannot follow is reported as opaque.
 */
export function parseShell(command: string): ShellParse {
  const collected: Collected = {
    commands: [],
    problems: new Set(),
    opaque: new Set(),
    pending: [],
  };
  new Reader(command, 0, collected).readList({ where: 'the command', topLevel: true });
  return {
    commands: collected.commands,
    problems: [...collected.problems],
    opaque: [...collected.opaque],
  };
}
