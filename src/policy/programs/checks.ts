/**
 * The option table's checks in code, for what a list of options cannot say: what a sed script or
 * an awk program does, and whether `git config` writes. Each fails closed: text it cannot read
 * is a hit.
 */

import type { ShellWord } from '../shell-words.js';
import type { CheckRow } from './spec.js';

/** What a check sees of the command (one level: the program, or its sub-command). */
export interface CheckContext {
  readonly label: string;
  readonly words: readonly ShellWord[];
  readonly options: ReadonlyArray<{
    readonly written: string;
    readonly names: readonly string[];
    readonly index: number;
    readonly value?: ShellWord;
    readonly valueIndex?: number;
  }>;
  readonly operands: readonly number[];
  readonly selector: number;
}

/** What a check found: rows that apply, and what may run unseen. */
export interface CheckResult {
  readonly hits: ReadonlyArray<{
    readonly index: number;
    readonly row: string;
    readonly reason: string;
  }>;
  readonly hidden: readonly string[];
}

const has = (context: CheckContext, ...names: string[]) =>
  context.options.some((option) => option.names.some((name) => names.includes(name)));

/** Runs one check of the table. */
export function runCheck(check: CheckRow['check'], context: CheckContext): CheckResult {
  switch (check) {
    case 'sed-script':
      return sedCheck(context);
    case 'awk-program':
      return awkCheck(context);
    case 'git-config-write':
      return gitConfigCheck(context);
    case 'subscript':
      return subscriptCheck(context);
  }
}

/** The scripts of a sed command: each -e value, else its first operand (unless -f gives one). */
function sedCheck(context: CheckContext): CheckResult {
  const scripts: Array<{ text: ShellWord; index: number }> = [];
  for (const option of context.options) {
    if (option.names.some((name) => name === '-e' || name === '--expression') && option.value)
      scripts.push({ text: option.value, index: option.valueIndex ?? option.index });
  }
  const first = context.operands[0];
  if (scripts.length === 0 && !has(context, '-f', '--file') && first !== undefined)
    scripts.push({ text: context.words[first] as ShellWord, index: first });
  const sandbox = has(context, '--sandbox');
  const hits: Array<{ index: number; row: string; reason: string }> = [];
  const hidden: string[] = [];
  for (const script of scripts) {
    const risk = script.text.literal
      ? sedScriptRisk(script.text.text)
      : 'has a script only known when the command runs';
    if (risk === undefined || (sandbox && risk !== SED_UNREADABLE)) continue;
    hits.push({
      index: script.index,
      row: `${context.label} script`,
      reason: `${context.label} script ${risk}`,
    });
    if (risk !== SED_WRITES) hidden.push(`${context.label} script ${risk}`);
  }
  return { hits, hidden };
}

const SED_EXECUTES = 'runs a shell command (the e command or the s///e flag)';
const SED_WRITES = 'writes to a file (the w command or the s///w flag)';
const SED_UNREADABLE = 'has a script skillhost cannot read, so it cannot tell what it runs';

/** What a sed script does beyond editing its stream: runs commands, writes files, or unknown. */
export function sedScriptRisk(script: string): string | undefined {
  let index = 0;
  const at = () => script[index];
  const skip = (characters: string) => {
    while (index < script.length && characters.includes(at() as string)) index += 1;
  };
  const toLineEnd = () => {
    while (index < script.length && at() !== '\n') {
      if (at() === '\\') index += 1;
      index += 1;
    }
  };
  /** Reads up to an unescaped delimiter; false when it never comes. */
  const delimited = (delimiter: string): boolean => {
    while (index < script.length) {
      const character = at();
      if (character === '\\') index += 2;
      else if (character === delimiter) {
        index += 1;
        return true;
      } else if (character === '\n' && delimiter !== '\n') return false;
      else index += 1;
    }
    return false;
  };
  const address = (): boolean => {
    const character = at();
    if (character === undefined) return true;
    if (/[0-9]/.test(character)) {
      skip('0123456789');
      if (at() === '~') {
        index += 1;
        skip('0123456789');
      }
    } else if (character === '$') index += 1;
    else if (character === '/' || character === '\\') {
      const delimiter = character === '/' ? '/' : script[index + 1];
      index += character === '/' ? 1 : 2;
      if (delimiter === undefined || !delimited(delimiter)) return false;
      skip('IM');
    } else if (character === '+' || character === '~') {
      index += 1;
      skip('0123456789');
    }
    return true;
  };
  while (index < script.length) {
    skip(' \t\n;');
    if (index >= script.length) break;
    if (!address()) return SED_UNREADABLE;
    skip(' \t');
    if (at() === ',') {
      index += 1;
      skip(' \t');
      if (!address()) return SED_UNREADABLE;
    }
    skip(' \t');
    while (at() === '!') {
      index += 1;
      skip(' \t');
    }
    const command = at();
    index += 1;
    switch (command) {
      case '{':
      case '}':
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        skip(' \t0123456789');
        break;
      case '#':
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
        toLineEnd();
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        while (index < script.length && at() !== '\n' && at() !== ';') index += 1;
        break;
      case 'w':
      case 'W':
        return SED_WRITES;
      case 'e':
        return SED_EXECUTES;
      case 's':
      case 'y': {
        const delimiter = at();
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
          return SED_UNREADABLE;
        index += 1;
        if (!delimited(delimiter) || !delimited(delimiter)) return SED_UNREADABLE;
        if (command === 'y') break;
        for (;;) {
          const flag = at();
          if (flag === 'e') return SED_EXECUTES;
          if (flag === 'w') return SED_WRITES;
          if (flag === undefined || !/[gpiImM0-9]/.test(flag)) break;
          index += 1;
        }
        break;
      }
      default:
        return SED_UNREADABLE;
    }
    skip(' \t');
    const next = at();
    if (next !== undefined && !';\n}#'.includes(next)) return SED_UNREADABLE;
  }
  return undefined;
}

/** The program texts of an awk command: -e and --source values, and every operand. */
function awkCheck(context: CheckContext): CheckResult {
  const texts: Array<{ text: ShellWord; index: number }> = [];
  for (const option of context.options) {
    if (option.names.some((name) => ['-e', '--source'].includes(name)) && option.value)
      texts.push({ text: option.value, index: option.valueIndex ?? option.index });
  }
  for (const index of context.operands)
    texts.push({ text: context.words[index] as ShellWord, index });
  const hits: Array<{ index: number; row: string; reason: string }> = [];
  const hidden: string[] = [];
  for (const { text, index } of texts) {
    const risk = text.literal
      ? awkProgramRisk(text.text)
      : 'has a program only known when the command runs';
    if (risk === undefined) continue;
    hits.push({
      index,
      row: `${context.label} program`,
      reason: `${context.label} program ${risk}`,
    });
    hidden.push(`${context.label} program ${risk}`);
  }
  return { hits, hidden };
}

/** What an awk program does beyond reading and printing: runs commands, writes, loads code. */
export function awkProgramRisk(program: string): string | undefined {
  // Strings, regular expressions and comments out, so that only the code is judged.
  let code = '';
  let operand = false;
  for (let index = 0; index < program.length; index += 1) {
    const character = program[index] as string;
    if (character === '#') {
      while (index < program.length && program[index] !== '\n') index += 1;
      code += '\n';
      operand = false;
      continue;
    }
    if (character === '"' || (character === '/' && !operand)) {
      let end = index + 1;
      let bracket = false;
      while (end < program.length) {
        const inner = program[end];
        if (inner === '\\') end += 1;
        else if (character === '/' && inner === '[') bracket = true;
        else if (character === '/' && inner === ']') bracket = false;
        else if (inner === character && !bracket) break;
        else if (inner === '\n') break;
        end += 1;
      }
      if (program[end] !== character) return 'has a program skillhost cannot read';
      code += `${character}${character}`;
      index = end;
      operand = true;
      continue;
    }
    if (/[A-Za-z0-9_$.]/.test(character)) {
      let end = index;
      while (end < program.length && /[A-Za-z0-9_$.]/.test(program[end] as string)) end += 1;
      const word = program.slice(index, end);
      code += word;
      index = end - 1;
      operand = !/^(?:print|printf|return|in|getline|case|do|else)$/.test(word);
      continue;
    }
    code += character;
    if (character === ')' || character === ']') operand = true;
    else if (!/\s/.test(character)) operand = false;
  }
  if (/\bsystem\s*\(/.test(code)) return 'runs a shell command (system())';
  if (code.replace(/\|\|/g, '').includes('|'))
    return 'runs a shell command through a pipe ("cmd" | getline, print | "cmd")';
  if (/@load\b/.test(code)) return 'loads a compiled extension (@load)';
  if (/@[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(code))
    return 'calls a function by name (@f(), which may be system)';
  for (const statement of code.split(/[;\n}]/)) {
    const print = statement.search(/\bprintf?\b/);
    if (print !== -1 && statement.indexOf('>', print) !== -1)
      return 'writes to a file (print > FILE)';
  }
  return undefined;
}

const CONFIG_READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '-l',
  '--list',
  '--show-origin',
  '--show-scope',
  '--name-only',
  '-z',
  '--null',
  '--includes',
  '--no-includes',
  '--type',
  '--bool',
  '--int',
  '--bool-or-int',
  '--path',
  '--expiry-date',
  '--default',
  '--global',
  '--system',
  '--local',
  '--worktree',
  '-f',
  '--file',
  '--blob',
  '--all',
  '--regexp',
  '--value',
  '--fixed-value',
  '--url',
]);

/** `git config` that may write (any form but a read), so settings that run programs. */
function gitConfigCheck(context: CheckContext): CheckResult {
  const reason = `${context.label} writes configuration, and settings run programs (core.sshCommand, core.pager, core.fsmonitor, alias.NAME=!command)`;
  const first = context.operands[0];
  const action = first === undefined ? undefined : (context.words[first] as ShellWord);
  const unknown = context.options.find(
    (option) => !option.names.some((name) => CONFIG_READS.has(name)),
  );
  const reads =
    unknown === undefined &&
    (action?.literal && ['get', 'list'].includes(action.text)
      ? true
      : action?.literal &&
          ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(action.text)
        ? false
        : has(
            context,
            '--get',
            '--get-all',
            '--get-regexp',
            '--get-urlmatch',
            '--get-color',
            '--get-colorbool',
            '-l',
            '--list',
          ) || context.operands.length <= 1);
  if (reads) return { hits: [], hidden: [] };
  const index = Math.max(unknown?.index ?? 0, first ?? context.selector + 1);
  return { hits: [{ index, row: context.label, reason }], hidden: [] };
}

/** Shell builtins that evaluate an array subscript (`printf -v 'a[$(cmd)]'`) run what is in it. */
function subscriptCheck(context: CheckContext): CheckResult {
  const hits: Array<{ index: number; row: string; reason: string }> = [];
  const hidden: string[] = [];
  const reason = `${context.label} evaluates array subscripts, and a subscript can run a command substitution`;
  for (let index = context.selector + 1; index < context.words.length; index += 1) {
    const word = context.words[index] as ShellWord;
    if (!word.literal || /\[[^\]]*[$`]/.test(word.text)) {
      hits.push({ index, row: context.label, reason });
      hidden.push(reason);
    } else if (context.label === 'let' && /[A-Za-z_]/.test(word.text)) {
      hidden.push(`${context.label} evaluates variables as arithmetic, which can run commands`);
    }
  }
  return { hits, hidden };
}
