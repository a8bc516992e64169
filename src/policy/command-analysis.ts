import { type ProgramReading, readProgram } from './programs/reading.js';
import { parseShell, type ShellParse } from './shell-syntax.js';
import type { ShellWord } from './shell-words.js';

/** A command that would run for a command line, wherever it sits. */
export interface ExecutedCommand {
  readonly words: readonly ShellWord[];
  /** Where it runs: `the command`, `a command substitution`, `xargs`, `bash -c`. */
  readonly where: string;
  /** More arguments may be added that the text does not show (`xargs curl`). */
  readonly open: boolean;
  /** argv without the options before a sub-command (`git -C . push` → `git push`). */
  readonly canonical?: readonly ShellWord[];
  /** Its program is neither in the option table nor known to leave its arguments alone. */
  readonly mayRunArguments: boolean;
  /** It may run: its words are the arguments of a program that may run them (`mytool sh -c ...`). */
  readonly possible?: boolean;
}

/** One command of the command line itself (between ; && || | and newlines). */
export interface CommandSegment {
  readonly words: readonly ShellWord[];
  /** What the option table says about it. */
  readonly reading: ProgramReading;
}

/** A command line, read for the policy. */
export interface CommandAnalysis {
  /** The commands of the line itself, for grants. */
  readonly segments: readonly CommandSegment[];
  /** Why the line is more than plain commands (substitutions, redirections, ...): grants ask. */
  readonly problems: readonly string[];
  /** Every command that would run, at any depth, for deny rules. */
  readonly executed: readonly ExecutedCommand[];
  /** Why a program might run that cannot be named from the text: deny rules cannot be ruled out. */
  readonly opaque: readonly string[];
}

/** Shell command lines inside shell command lines (`bash -c "sh -c '...'"`) followed this deep. */
const MAX_NESTING = 8;

/** Arguments of an unknown program read as possible command lines, at most. */
const MAX_ARGUMENTS_READ = 64;

interface State {
  readonly executed: ExecutedCommand[];
  readonly opaque: Set<string>;
  readonly segments: CommandSegment[];
}

/**
 * Reads a command line as the shell would, and every command it would run: those of chains and
 * pipes, of substitutions, subshells and expanded here-documents, and those that programs in the
 * option table run for it (`xargs curl`, `find -exec rm`, `bash -c '...'`, `env curl`, `git -c
 * core.sshCommand=...`). Pure.
 */
export function analyseCommand(command: string): CommandAnalysis {
  const state: State = { executed: [], opaque: new Set(), segments: [] };
  try {
    const parse = parseShell(command);
    collect(parse, state, 0, undefined);
    return {
      segments: state.segments,
      problems: parse.problems,
      executed: state.executed,
      opaque: [...state.opaque],
    };
  } catch {
    // Fail closed: a command the reader could not finish covers nothing and is in doubt.
    const reason = 'a command too complex to read';
    return { segments: [], problems: [reason], executed: state.executed, opaque: [reason] };
  }
}

function collect(
  parse: ShellParse,
  state: State,
  depth: number,
  via: string | undefined,
  possible = false,
): void {
  for (const reason of parse.opaque) state.opaque.add(reason);
  for (const command of parse.commands) {
    const reading = readProgram(command.words);
    if (via === undefined && command.topLevel)
      state.segments.push({ words: command.words, reading });
    const where = via === undefined || !command.topLevel ? command.where : via;
    add(state, command.words, where, false, reading, depth, possible);
  }
}

/** Records a command, the commands the table says it runs, and what its arguments may run. */
function add(
  state: State,
  words: readonly ShellWord[],
  where: string,
  open: boolean,
  reading: ProgramReading,
  depth: number,
  possible: boolean,
): void {
  const first = words[0];
  if (first === undefined) return;
  if (!first.literal) {
    state.opaque.add(
      `a program named by an expansion (${first.text}), only known when the command runs`,
    );
    return;
  }
  // zsh expands =NAME to NAME's path; a host whose shell is zsh would run NAME.
  if (first.text.startsWith('=') && !first.quoted)
    state.opaque.add(`a program word that zsh would expand (${first.text})`);
  state.executed.push({
    words,
    where,
    open,
    ...(reading.canonical === undefined ? {} : { canonical: reading.canonical }),
    mayRunArguments: !reading.known,
    ...(possible ? { possible } : {}),
  });
  for (const reason of reading.hidden) state.opaque.add(reason);
  if (depth >= MAX_NESTING) {
    state.opaque.add('commands nested too deeply to follow');
    return;
  }
  for (const inner of reading.inner) {
    if (inner.words !== undefined) {
      const innerReading = readProgram(inner.words);
      state.executed.push({
        words: inner.words,
        where: inner.via,
        open: inner.open === true,
        ...(innerReading.canonical === undefined ? {} : { canonical: innerReading.canonical }),
        mayRunArguments: !innerReading.known,
        ...(possible ? { possible } : {}),
      });
      // Its own inner commands are already in this list; what its arguments may run is not.
      addArguments(state, inner.words, innerReading, depth);
    } else if (inner.shell !== undefined) {
      collect(parseShell(inner.shell), state, depth + 1, inner.via, possible);
    }
  }
  addArguments(state, words, reading, depth);
}

/**
 * A program the table does not know may run its arguments: as a command (`mytool sh -c ...`)
 * or as command lines (`mytool 'curl x'`). What that would run may happen: it is never allowed.
 */
function addArguments(
  state: State,
  words: readonly ShellWord[],
  reading: ProgramReading,
  depth: number,
): void {
  if (reading.known) return;
  const label = `an argument of ${reading.program}`;
  const rest = words.slice(1);
  if (rest[0]?.literal === true) add(state, rest, label, false, readProgram(rest), depth + 1, true);
  // Any argument may be a command line to it (`mytool '"curl" x'`): read each one as such.
  for (const word of rest.slice(0, MAX_ARGUMENTS_READ)) {
    if (word.literal && /[^\w./:=,+-]/.test(word.text))
      collect(parseShell(word.text), state, depth + 1, label, true);
  }
  if (rest.length > MAX_ARGUMENTS_READ)
    state.opaque.add(`too many arguments of ${reading.program} to read`);
}
