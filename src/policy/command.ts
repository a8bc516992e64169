import { parseShell } from './shell-syntax.js';

/**
 * A shell command, read the way a shell would split it, for matching against command grants.
 * Anything whose effect cannot be known from the words alone (substitutions, expansions,
 * redirections, subshells, environment assignments) is reported, never guessed at.
 */
export interface ParsedCommand {
  /** The simple commands of the line itself, split at ; & && | || and newlines. */
  readonly segments: ReadonlyArray<readonly string[]>;
  /** Why the command cannot be judged from its words (empty when it can). */
  readonly unsafe: readonly string[];
}

/** Splits a command line into its commands' words (see `parseShell` for the whole reading). */
export function parseCommand(command: string): ParsedCommand {
  const parse = parseShell(command);
  return {
    segments: parse.commands
      .filter((entry) => entry.topLevel)
      .map((entry) => entry.words.map((word) => word.text)),
    unsafe: parse.problems,
  };
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
