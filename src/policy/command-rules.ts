import { quote } from '../quote.js';
import type { ToolGrant } from './allowed-tools.js';
import type { CommandAnalysis, ExecutedCommand } from './command-analysis.js';
import { globMatches, type ScriptCall, scriptCommandLines } from './coverage.js';
import { baseName, type ShellWord } from './shell-words.js';
import { type CanonicalTool, COMMAND_TOOLS } from './tools.js';

/** How sure a deny rule is to match: it does, it may (the text cannot say), or it does not. */
export type DenyMatch = 'yes' | 'maybe' | 'no';

/** The same program by name: base names, ignoring case (`/usr/bin/CURL` is curl on some systems). */
export function sameProgram(a: string, b: string): boolean {
  return baseName(a).toLowerCase() === baseName(b).toLowerCase();
}

function matchWords(
  words: readonly ShellWord[],
  pattern: { readonly argv: readonly string[]; readonly prefix: boolean },
  open: boolean,
): DenyMatch {
  const first = words[0];
  const program = pattern.argv[0];
  if (first === undefined || program === undefined) return 'no';
  if (!first.literal) return 'maybe';
  if (!sameProgram(first.text, program)) return 'no';
  let uncertain = false;
  for (let index = 1; index < pattern.argv.length; index += 1) {
    const word = words[index];
    if (word === undefined) {
      if (!open) return 'no';
      uncertain = true;
      break;
    }
    if (!word.literal) uncertain = true;
    else if (word.text !== pattern.argv[index]) return 'no';
  }
  if (!pattern.prefix && words.length !== pattern.argv.length) {
    if (!open || words.length > pattern.argv.length) return 'no';
    uncertain = true;
  }
  return uncertain ? 'maybe' : 'yes';
}

/**
 * Whether a command a deny rule names (`Bash(curl:*)`, `Bash(git push:*)`) is this one: by the
 * program's base name, then word by word; through the sub-command for programs with global
 * options (`git -C . push`); and `maybe` when a word is only known at run time, or the denied
 * program is an argument of a program that may run its arguments (`proxychains curl`).
 */
export function denyMatches(
  command: ExecutedCommand,
  pattern: { readonly argv: readonly string[]; readonly prefix: boolean },
): DenyMatch {
  const direct = matchWords(command.words, pattern, command.open);
  const canonical =
    command.canonical === undefined ? 'no' : matchWords(command.canonical, pattern, command.open);
  if (direct === 'yes' || canonical === 'yes') return command.possible === true ? 'maybe' : 'yes';
  if (direct === 'maybe' || canonical === 'maybe') return 'maybe';
  const program = pattern.argv[0];
  if (
    command.mayRunArguments &&
    program !== undefined &&
    command.words.slice(1).some((word) => !word.literal || sameProgram(word.text, program))
  )
    return 'maybe';
  return 'no';
}

/** A host deny rule that decides a request, and how to say so. */
export interface Denial {
  readonly rule: ToolGrant;
  readonly reason: string;
}

/** What the host's deny rules say about a command line: denied, in doubt, or neither. */
export interface CommandRulings {
  readonly denied?: Denial;
  /** Why a deny rule cannot be ruled out: the command then cannot be allowed. */
  readonly doubt?: string;
}

function shown(command: ExecutedCommand): string {
  const text = command.words.map((word) => word.text).join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Where a command runs, as the end of a sentence: `runs inside a command substitution`. */
function place(command: ExecutedCommand): string {
  if (command.where === 'the command') return '';
  return /^an? /.test(command.where)
    ? `runs inside ${command.where}`
    : `is run by ${command.where}`;
}

/**
 * The deny rules on a command line: a rule for the tool without a pattern denies every command;
 * a rule with one denies the line when any command that would run matches it, at any depth (a
 * segment of a chain or pipe, a substitution, `bash -c '...'`, `xargs`, `find -exec`, `env`).
 * A rule that may match (a word only known at run time, an unreadable construct) is a doubt.
 */
export function commandRulings(
  rules: readonly ToolGrant[],
  analysis: CommandAnalysis,
): CommandRulings {
  let doubt: string | undefined;
  const patterned: ToolGrant[] = [];
  for (const rule of rules) {
    if (!rule.tools.some((tool) => COMMAND_TOOLS.has(tool))) continue;
    const pattern = rule.command;
    if (pattern === undefined)
      return { denied: { rule, reason: `The host denies ${quote(rule.raw)}` } };
    patterned.push(rule);
    for (const command of analysis.executed) {
      const match: DenyMatch = denyMatches(command, pattern);
      if (match === 'yes') {
        return {
          denied: {
            rule,
            reason: `The host denies ${quote(rule.raw)}${place(command) === '' ? '' : `: ${quote(shown(command))} ${place(command)}`}`,
          },
        };
      }
      if (match === 'maybe')
        doubt ??= `the host denies ${quote(rule.raw)}, and ${quote(shown(command))}${place(command) === '' ? '' : ` (${place(command)})`} may run it`;
    }
  }
  if (doubt === undefined && patterned.length > 0 && analysis.opaque.length > 0) {
    doubt = `the host denies ${patterned.map((rule) => `${quote(rule.raw)}`).join(', ')}, and this command may run a program that cannot be seen (${analysis.opaque[0]})`;
  }
  return doubt === undefined ? {} : { doubt };
}

/** A deny rule for a tool other than a command tool: by tool, and by path where it has one. */
export function toolDenial(
  rules: readonly ToolGrant[],
  tool: CanonicalTool | string,
  path: string | undefined,
): Denial | undefined {
  for (const rule of rules) {
    if (!rule.tools.includes(tool as CanonicalTool)) continue;
    if (rule.path !== undefined && (path === undefined || !globMatches(rule.path, path))) continue;
    return { rule, reason: `The host denies ${quote(rule.raw)}` };
  }
  return undefined;
}

/**
 * A script run is the command `INTERPRETER scripts/PATH ARGS...`: the host's rules about
 * commands bind it too. When the host has no command tool, denies commands by default, or has a
 * deny rule that matches one of the script's command lines, no skill may pre-approve the run:
 * the reason why, else undefined.
 */
export function scriptCommandRule(
  script: ScriptCall,
  options: {
    readonly hasCommandTool: boolean;
    readonly commandsDeniedByDefault: boolean;
    readonly rules: readonly ToolGrant[];
  },
): string | undefined {
  const lines = scriptCommandLines(script);
  // Name it as it would be typed: with its interpreter when it has one.
  const first = lines[2] ?? lines[0] ?? [];
  const command = first.join(' ');
  const prefix = `A script run is the command '${command.length > 80 ? `${command.slice(0, 77)}...` : command}'`;
  if (!options.hasCommandTool)
    return `${prefix}, and the host has no bash tool: no skill can pre-approve it`;
  if (options.commandsDeniedByDefault)
    return `${prefix}, and the host denies bash by default: no skill can pre-approve it`;
  for (const rule of options.rules) {
    if (!rule.tools.some((tool) => COMMAND_TOOLS.has(tool))) continue;
    const pattern = rule.command;
    const matched =
      pattern === undefined ||
      lines.some(
        (line) =>
          denyMatches(
            {
              words: line.map((text) => ({ text, literal: true, quoted: false })),
              where: 'the command',
              open: false,
              mayRunArguments: false,
            },
            pattern,
          ) !== 'no',
      );
    if (matched)
      return `${prefix}, and the host denies ${quote(rule.raw)}: no skill can pre-approve it`;
  }
  return undefined;
}
