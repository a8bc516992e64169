import type { ScriptRunRequest } from '../../src/deps.js';
import {
  createScriptedRunner,
  type ScriptedOutcome,
  type ScriptedRunner,
  type ScriptedRunnerOptions,
} from '../../src/testing/index.js';

/**
 * Plays the tiny shell scripts of the unit fixtures without starting a process: `echo` (to
 * stdout, or stderr with `>&2`), `exit N`, and `sleep N` (a timeout when N seconds reach the
 * run's limit), with double and single quotes, `$1`…`$9`, `$*`, `$@`, `$#` and `$((a + b))`.
 * Anything else throws, so a fixture the emulator does not understand fails its test loudly
 * instead of passing by accident. The real shell runs these scripts in the sandbox suite.
 */
export function emulateShell(request: ScriptRunRequest): ScriptedOutcome {
  if (request.interpreter !== 'sh' && request.interpreter !== 'bash') {
    throw new Error(`The shell emulator cannot run ${request.interpreter} scripts`);
  }
  const text = new TextDecoder().decode(request.scriptBytes);
  let stdout = '';
  let stderr = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [command, ...rest] = words(line, request.args);
    if (command === 'echo') {
      const toStderr = rest.at(-1) === '>&2';
      const output = `${(toStderr ? rest.slice(0, -1) : rest).join(' ')}\n`;
      if (toStderr) stderr += output;
      else stdout += output;
    } else if (command === 'exit' && rest.length <= 1) {
      return { stdout, stderr, exitCode: integer(rest[0] ?? '0', line) };
    } else if (command === 'sleep' && rest.length === 1) {
      if (Number(rest[0]) * 1000 >= request.limits.timeoutMs)
        return { stdout, stderr, timedOut: true };
    } else {
      throw new Error(`The shell emulator cannot run this line: ${line}`);
    }
  }
  return { stdout, stderr };
}

/** A scripted runner that plays fixture shell scripts with `emulateShell`. */
export function shellRunner(options: ScriptedRunnerOptions = {}): ScriptedRunner {
  return createScriptedRunner(emulateShell, options);
}

function integer(text: string, line: string): number {
  if (!/^-?\d+$/.test(text)) throw new Error(`Not a number in: ${line}`);
  return Number(text);
}

/** `$N`, `$*`, `$@` or `$#` at `index` (which holds the `$`): the value and the length read. */
function parameter(line: string, index: number, args: readonly string[]): [string, number] {
  const next = line[index + 1] ?? '';
  if (/[1-9]/.test(next)) return [args[Number(next) - 1] ?? '', 2];
  if (next === '*' || next === '@') return [args.join(' '), 2];
  if (next === '#') return [String(args.length), 2];
  return ['$', 1];
}

/** `$((a + b - c))` with integers and parameters. */
function arithmetic(expression: string, args: readonly string[], line: string): string {
  let expanded = '';
  for (let index = 0; index < expression.length; index += 1) {
    if (expression[index] === '$') {
      const [value, length] = parameter(expression, index, args);
      expanded += value === '' ? '0' : value;
      index += length - 1;
    } else expanded += expression[index];
  }
  const terms = expanded.replace(/\s+/g, '').match(/[+-]?\d+/g);
  if (terms === null || terms.join('') !== expanded.replace(/\s+/g, ''))
    throw new Error(`The shell emulator cannot compute: ${line}`);
  return String(terms.reduce((sum, term) => sum + Number(term), 0));
}

/** Splits a line into words as sh does for these fixtures: quotes, escapes, expansions. */
function words(line: string, args: readonly string[]): string[] {
  const result: string[] = [];
  let word = '';
  let started = false;
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] as string;
    if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (char === "'" && !quoted) {
      const end = line.indexOf("'", index + 1);
      if (end === -1) throw new Error(`Unclosed quote in: ${line}`);
      word += line.slice(index + 1, end);
      started = true;
      index = end;
    } else if (char === '\\') {
      word += line[index + 1] ?? '';
      started = true;
      index += 1;
    } else if (char === '$' && line.startsWith('$((', index)) {
      const end = line.indexOf('))', index);
      if (end === -1) throw new Error(`Unclosed arithmetic in: ${line}`);
      word += arithmetic(line.slice(index + 3, end), args, line);
      started = true;
      index = end + 1;
    } else if (char === '$') {
      const [value, length] = parameter(line, index, args);
      word += value;
      if (value !== '') started = true;
      index += length - 1;
    } else if (/\s/.test(char) && !quoted) {
      if (started) result.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quoted) throw new Error(`Unclosed quote in: ${line}`);
  if (started) result.push(word);
  return result;
}
