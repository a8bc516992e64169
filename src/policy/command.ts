/**
 * A shell command, read the way a shell would split it, for matching against command grants.
 * Anything whose effect cannot be known from the words alone (substitutions, expansions,
 * redirections, subshells, environment assignments) is reported, never guessed at.
 */
export interface ParsedCommand {
  /** The simple commands, split at ; & && | || and newlines. */
  readonly segments: ReadonlyArray<readonly string[]>;
  /** Why the command cannot be judged from its words (empty when it can). */
  readonly unsafe: readonly string[];
}

const operators = new Set([';', '&', '|', '\n']);

export function parseCommand(command: string): ParsedCommand {
  const segments: string[][] = [];
  const unsafe = new Set<string>();
  let current: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) current.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = () => {
    endWord();
    if (current.length > 0) segments.push(current);
    current = [];
  };
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (character === '\\') {
      const next = command[index + 1];
      if (next === undefined) break;
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      index += 1;
      continue;
    }
    if (character === "'") {
      const close = command.indexOf("'", index + 1);
      if (close === -1) {
        unsafe.add('an unclosed quote');
        break;
      }
      word += command.slice(index + 1, close);
      inWord = true;
      index = close;
      continue;
    }
    if (character === '"') {
      let cursor = index + 1;
      for (; cursor < command.length && command[cursor] !== '"'; cursor += 1) {
        const inner = command[cursor] as string;
        if (inner === '\\' && cursor + 1 < command.length) {
          cursor += 1;
          word += command[cursor];
          continue;
        }
        if (inner === '$' || inner === '`') unsafe.add('a substitution or expansion');
        word += inner;
      }
      if (cursor >= command.length) {
        unsafe.add('an unclosed quote');
        break;
      }
      inWord = true;
      index = cursor;
      continue;
    }
    if (character === '#' && !inWord) {
      const newline = command.indexOf('\n', index);
      if (newline === -1) break;
      index = newline - 1;
      continue;
    }
    if (character === ' ' || character === '\t') {
      endWord();
      continue;
    }
    if (operators.has(character)) {
      endSegment();
      continue;
    }
    if (character === '$' || character === '`') unsafe.add('a substitution or expansion');
    else if (character === '<' || character === '>') unsafe.add('a redirection');
    else if (
      character === '(' ||
      character === ')' ||
      ((character === '{' || character === '}') && !inWord)
    ) {
      unsafe.add('a subshell or group');
    } else if (character === '*' || character === '?' || character === '[')
      unsafe.add('a glob pattern');
    else if (character === '~' && !inWord) unsafe.add('a home-directory expansion');
    else if (
      character === '=' &&
      inWord &&
      current.length === 0 &&
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(word)
    ) {
      unsafe.add('an environment assignment');
    }
    word += character;
    inWord = true;
  }
  endSegment();
  return { segments, unsafe: [...unsafe] };
}

/** True when argv starts with (prefix) or equals (exact) the pattern's words. */
export function argvMatches(
  argv: readonly string[],
  pattern: { readonly argv: readonly string[]; readonly prefix: boolean },
): boolean {
  if (pattern.prefix ? argv.length < pattern.argv.length : argv.length !== pattern.argv.length)
    return false;
  return pattern.argv.every((word, index) => argv[index] === word);
}
