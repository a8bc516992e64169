import { baseName, type ShellWord } from '../shell-words.js';
import {
  optionRows,
  type ParsedArguments,
  parseArguments,
  type RecordedOption,
} from './arguments.js';
import { runCheck } from './checks.js';

export type { RecordedOption } from './arguments.js';

import type { ArgumentSpec, ProgramSpec, SubcommandTable } from './spec.js';
import { INERT_PROGRAMS, PROGRAMS } from './table.js';

/** A row of the option table that applies to a command. */
export interface ProgramHit {
  /** Index in argv of the last word the row needed (a grant that names it explicitly covers it). */
  readonly index: number;
  /** The row, as a user reads it: `git -c`, `find -exec`, `xargs`. */
  readonly row: string;
  /** The row and why it means ask: `git -c can run another program (...)`. */
  readonly reason: string;
}

/** A command that a program runs for the command line (its argv, or a shell command line). */
export interface InnerCommand {
  /** What runs it: `xargs`, `find -exec`, `bash -c`. */
  readonly via: string;
  readonly words?: readonly ShellWord[];
  readonly shell?: string;
  /** More arguments may be added that the command line does not show (xargs, find -exec). */
  readonly open?: boolean;
}

/** What the option table says about one simple command. */
export interface ProgramReading {
  /** The program's base name. */
  readonly program: string;
  /** The table describes the program, or it is known never to run its operands. */
  readonly known: boolean;
  readonly hits: readonly ProgramHit[];
  /** Commands it runs, at any depth of wrapping (`timeout 5 xargs curl`: xargs curl, curl). */
  readonly inner: readonly InnerCommand[];
  /** Why it may run something that cannot be named from the text (program text, odd options). */
  readonly hidden: readonly string[];
  /** argv without the options before its sub-command (`git -C . push` → `git push`). */
  readonly canonical?: readonly ShellWord[];
}

/** The words that name standard input as a file. */
export const STDIN_NAMES: ReadonlySet<string> = new Set([
  '-',
  '/dev/stdin',
  '/dev/fd/0',
  '/proc/self/fd/0',
]);

/** Wrapping deeper than this is not followed (reported as hidden). */
const MAX_WRAPPING = 12;

const byName = new Map<string, ProgramSpec>(
  PROGRAMS.flatMap((spec) => spec.names.map((name) => [name, spec] as const)),
);

/** The table's entry for a program (`/usr/bin/python3.12` reads as python3, then python). */
export function programSpec(program: string): ProgramSpec | undefined {
  const name = baseName(program).toLowerCase();
  return (
    byName.get(name) ??
    byName.get(name.replace(/\.[0-9.]*$/, '')) ??
    byName.get(name.replace(/[0-9.]+$/, ''))
  );
}

/** True when the table describes the program, or it is known never to run its operands. */
export function isKnownProgram(program: string): boolean {
  return programSpec(program) !== undefined || INERT_PROGRAMS.has(baseName(program).toLowerCase());
}

interface Walk {
  readonly words: readonly ShellWord[];
  readonly hits: ProgramHit[];
  readonly inner: InnerCommand[];
  readonly hidden: string[];
  canonical?: readonly ShellWord[];
  readonly depth: number;
}

/**
 * Reads a command's argv against the option table: the rows that apply (hits), the commands it
 * runs (inner), and what it may run that cannot be named (hidden). Pure and total.
 */
export function readProgram(words: readonly ShellWord[], depth = 0): ProgramReading {
  const first = words[0];
  if (first === undefined || !first.literal)
    return { program: first?.text ?? '', known: false, hits: [], inner: [], hidden: [] };
  const program = baseName(first.text).toLowerCase();
  const spec = programSpec(first.text);
  if (spec === undefined)
    return { program, known: INERT_PROGRAMS.has(program), hits: [], inner: [], hidden: [] };
  const walk: Walk = { words, hits: [], inner: [], hidden: [], depth };
  if (depth > MAX_WRAPPING) walk.hidden.push('commands wrapped too deeply to follow');
  else readLevel(walk, spec, 1, program, 0);
  return {
    program,
    known: true,
    hits: walk.hits,
    inner: walk.inner,
    hidden: walk.hidden,
    ...(walk.canonical === undefined ? {} : { canonical: walk.canonical }),
  };
}

function readLevel(
  walk: Walk,
  spec: ArgumentSpec,
  start: number,
  label: string,
  selector: number,
): void {
  const parsed = parseArguments(walk.words, spec, start, label, walk.hidden);
  if (parsed.subcommand !== undefined && spec.subcommands !== undefined)
    readSubcommand(walk, spec.subcommands, parsed.subcommand, label);
  const none = spec.subcommands?.none;
  if (none !== undefined && parsed.operands.length === 0 && !given(parsed.options, none.unless))
    hit(walk, walk.words.length, label, `${label} ${none.reason}`);
  evaluateRows(walk, spec, label, selector, parsed);
  if (spec.wrapper !== undefined) readWrapped(walk, spec, label, parsed);
}

function given(options: readonly RecordedOption[], names: readonly string[] | undefined): boolean {
  return (
    names !== undefined &&
    options.some((option) => option.names.some((name) => names.includes(name)))
  );
}

/**
 * Records a row that applies. Unless the command it runs is named (and read) from the text, it
 * may run something unseen: for deny rules that is a doubt (hidden), never an allow.
 */
function hit(walk: Walk, index: number, row: string, reason: string, named = false): void {
  walk.hits.push({ index: Math.min(index, walk.words.length), row, reason });
  if (!named) walk.hidden.push(reason);
}

/** Reads inner words as a command of their own; their hits are placed at their argv index. */
function readInner(walk: Walk, via: string, start: number, end: number, open = false): void {
  const words = walk.words.slice(start, end);
  if (words.length === 0) return;
  walk.inner.push({ via, words, ...(open ? { open } : {}) });
  const reading = readProgram(words, walk.depth + 1);
  for (const found of reading.hits) walk.hits.push({ ...found, index: found.index + start });
  walk.inner.push(...reading.inner);
  walk.hidden.push(...reading.hidden);
}

function readSubcommand(walk: Walk, table: SubcommandTable, index: number, label: string): void {
  const { words } = walk;
  const word = words[index] as ShellWord;
  walk.canonical ??= [words[0] as ShellWord, ...words.slice(index)];
  if (!word.literal) {
    hit(walk, index, label, `${label} runs a sub-command only known when the command runs`);
    walk.hidden.push(`${label} runs a sub-command only known when the command runs`);
    return;
  }
  const name = word.text;
  const spec = Object.hasOwn(table.specs, name) ? table.specs[name] : undefined;
  if (spec !== undefined) {
    readLevel(walk, spec, index + 1, `${label} ${name}`, index);
    return;
  }
  if (table.unknown === 'command') {
    readInner(walk, label, index, words.length);
    return;
  }
  hit(walk, index, `${label} ${name}`, `${label} ${name} ${table.unknown.reason}`);
}

/** The value of a `KEY=VALUE` or `KEY VALUE` setting, as the command it may be. */
function settingValue(text: string): { key: string; value: string } {
  const match = /^\s*([^=\s]*)\s*[=\s]\s*([\s\S]*)$/.exec(text);
  if (match === null) return { key: text.trim(), value: '' };
  return { key: match[1] as string, value: (match[2] as string).replace(/^!/, '') };
}

function evaluateRows(
  walk: Walk,
  spec: ArgumentSpec,
  label: string,
  selector: number,
  parsed: ParsedArguments,
): void {
  const { words } = walk;
  const { options, operands } = parsed;
  if (spec.flags !== undefined) {
    // A program whose every option is listed: one that is not cannot be judged (fail closed).
    const known = new Set([
      ...spec.flags,
      ...(spec.values ?? []),
      ...(spec.optionalValues ?? []),
      ...optionRows(spec).flatMap((row) => row.options),
    ]);
    for (const option of options) {
      if (option.names.some((name) => known.has(name))) continue;
      hit(
        walk,
        option.index,
        label,
        `${label} ${option.written} is an option skillhost does not know, so it cannot tell what it does`,
      );
    }
  }
  for (const row of spec.rows ?? []) {
    if (row.kind === 'always') {
      if (!given(options, row.unless)) hit(walk, selector + 1, label, `${label} ${row.reason}`);
      continue;
    }
    if (row.kind === 'check') {
      const found = runCheck(row.check, { label, words, options, operands, selector });
      for (const item of found.hits) hit(walk, item.index, item.row, item.reason);
      walk.hidden.push(...found.hidden);
      continue;
    }
    if (row.kind === 'operand') {
      if (given(options, row.unless) || (row.when !== undefined && !given(options, row.when)))
        continue;
      if (row.match === 'none') {
        if (operands.length === 0) hit(walk, words.length, label, `${label} ${row.reason}`);
        continue;
      }
      for (const at of row.first === true ? operands.slice(0, 1) : operands) {
        const operand = words[at] as ShellWord;
        const matches =
          row.match === 'stdin'
            ? operand.literal && STDIN_NAMES.has(operand.text)
            : !operand.literal || row.match.test(operand.text);
        if (!matches) continue;
        const named = row.payload === 'shell' || row.payload === 'setting';
        hit(walk, at, label, `${label} ${row.reason}`, named && operand.literal);
        if (!named || !operand.literal) continue;
        const text = row.payload === 'setting' ? settingValue(operand.text).value : operand.text;
        if (text !== '') walk.inner.push({ via: label, shell: text });
      }
      continue;
    }
    for (const option of options) {
      if (!option.names.some((name) => row.options.includes(name))) continue;
      if (given(options, row.unless)) continue;
      const value = option.value;
      if (row.value !== undefined) {
        if (value === undefined) continue;
        if (value.literal && !row.value.test(value.text)) continue;
      }
      const name = `${label} ${option.written}`;
      const setting =
        row.payload === 'setting' && value?.literal ? settingValue(value.text) : undefined;
      if (row.reason !== undefined) {
        const here = setting !== undefined && setting.key !== '' ? ` (here ${setting.key})` : '';
        // A command the option runs is named at its first word, as a wrapper's is.
        const at = option.command?.start ?? option.valueIndex ?? option.index;
        const named =
          (row.payload === 'shell' && value?.literal === true) ||
          (row.payload === 'rest' && option.command !== undefined);
        hit(walk, at, name, `${name} ${row.reason}${here}`, named);
      }
      if (option.command !== undefined) {
        readInner(walk, name, option.command.start, option.command.end, row.payload === 'words');
        continue;
      }
      if (value !== undefined && !value.literal) {
        walk.hidden.push(`${name} has a value only known when the command runs`);
        continue;
      }
      if (row.payload === 'shell' && value !== undefined)
        walk.inner.push({ via: name, shell: value.text });
      if (row.payload === 'setting') {
        if (setting !== undefined && setting.value !== '')
          walk.inner.push({ via: name, shell: setting.value });
        walk.hidden.push(`${name} sets configuration that can run programs`);
      }
      if (row.payload === 'code')
        walk.hidden.push(`${name} runs program text that cannot be read here`);
    }
  }
}

function readWrapped(walk: Walk, spec: ArgumentSpec, label: string, parsed: ParsedArguments): void {
  const wrapper = spec.wrapper;
  if (wrapper === undefined || given(parsed.options, wrapper.without)) return;
  const { words } = walk;
  const start = parsed.commandStart;
  if (start === undefined) {
    if (wrapper.fallback === undefined) return;
    const fallback = wrapper.fallback.map((text) => ({ text, literal: true, quoted: false }));
    walk.inner.push({ via: label, words: fallback, open: true });
    hit(walk, words.length, label, `${label} ${wrapper.reason} (${wrapper.fallback[0]})`);
    return;
  }
  const command = words[start] as ShellWord;
  hit(walk, start, label, `${label} ${wrapper.reason} (${command.text})`, wrapper.open !== true);
  if (wrapper.join === true) {
    const rest = words.slice(start);
    walk.inner.push({ via: label, shell: rest.map((word) => word.text).join(' ') });
    if (rest.some((word) => !word.literal))
      walk.hidden.push(`${label} runs a command only known when the command runs`);
    return;
  }
  readInner(walk, label, start, words.length, wrapper.open === true);
}
