import type { ShellWord } from '../shell-words.js';
import type { ArgumentSpec, OptionRow } from './spec.js';

/** An option as the reader found it. */
export interface RecordedOption {
  /** As written (a prefix, when the program abbreviates): `--upload-p`, `-c`. */
  readonly written: string;
  /** What it may stand for. */
  readonly names: readonly string[];
  readonly index: number;
  readonly value?: ShellWord;
  readonly valueIndex?: number;
  /** For `words` and `rest` payloads: where the command's words start and end. */
  readonly command?: { readonly start: number; readonly end: number };
}

/** One level of a program's arguments, read. */
export interface ParsedArguments {
  readonly options: RecordedOption[];
  readonly operands: number[];
  /** Where a wrapper's command starts. */
  commandStart?: number;
  /** Where a sub-command was found. */
  subcommand?: number;
}

/** The option rows of a spec. */
export function optionRows(spec: ArgumentSpec): OptionRow[] {
  return (spec.rows ?? []).filter((row): row is OptionRow => row.kind === 'option');
}

/**
 * Reads one level of a program's arguments (the program's, or a sub-command's) the way its own
 * parser does: long options with = or a separate value (and prefixes, where it abbreviates),
 * clusters of letters (`-xzf FILE`), old-style letters (`tar xzf`), `--`, operands; stops at a
 * sub-command or a wrapped command. Words only known at run time are reported in `hidden`.
 */
export function parseArguments(
  words: readonly ShellWord[],
  spec: ArgumentSpec,
  start: number,
  label: string,
  hidden: string[],
): ParsedArguments {
  const rows = optionRows(spec);
  const payloadOf = (names: readonly string[]) =>
    rows.find((row) => row.options.some((option) => names.includes(option)))?.payload;
  const takesValue = new Set([
    ...(spec.values ?? []),
    ...rows
      .filter((row) => row.payload !== undefined || row.value !== undefined)
      .flatMap((row) => row.options),
  ]);
  const optional = new Set(spec.optionalValues ?? []);
  const longs = [
    ...takesValue,
    ...optional,
    ...(spec.flags ?? []),
    ...rows.flatMap((row) => row.options),
  ];
  const parsed: ParsedArguments = { options: [], operands: [] };
  const record = (option: RecordedOption): boolean => {
    const payload = payloadOf(option.names);
    if (payload === 'rest' && option.valueIndex !== undefined) {
      parsed.options.push({ ...option, command: { start: option.valueIndex, end: words.length } });
      return true;
    }
    parsed.options.push(option);
    return false;
  };
  let index = start;
  const firstWord = words[index];
  if (spec.oldStyle === true && firstWord?.literal && /^[A-Za-z]+$/.test(firstWord.text)) {
    // tar xzf FILE: the letters are options; those that take a value take the next words.
    let next = index + 1;
    for (const letter of firstWord.text) {
      const name = `-${letter}`;
      const value = takesValue.has(name) ? words[next] : undefined;
      record({
        written: name,
        names: [name],
        index,
        ...(value === undefined ? {} : { value, valueIndex: next }),
      });
      if (value !== undefined) next += 1;
    }
    index = next;
  }
  let open = true;
  let skipped = 0;
  while (index < words.length) {
    const word = words[index] as ShellWord;
    const text = word.text;
    if (open && !word.literal)
      hidden.push(`${label} has an argument only known when the command runs`);
    if (open && word.literal && text === '--') {
      open = false;
      index += 1;
      continue;
    }
    const dashed =
      text.length > 1 &&
      (text.startsWith('-') || (spec.plusOptions === true && text.startsWith('+')));
    if (open && word.literal && dashed) {
      // A single-dash option of several letters (`zip -TT CMD`) in a program of clusters.
      const multi =
        spec.singleDash === true
          ? undefined
          : longs.find((name) => /^[-+][^-]./.test(name) && text.startsWith(name));
      if (text.startsWith('--') || spec.singleDash === true || multi !== undefined) {
        const equals = text.indexOf('=');
        const written = multi ?? (equals === -1 ? text : text.slice(0, equals));
        const attached =
          multi !== undefined
            ? text.slice(multi.length)
            : equals === -1
              ? ''
              : text.slice(equals + 1);
        const names = resolveLong(written, spec, longs);
        if (payloadOf(names) === 'words') {
          let end = index + 1;
          while (end < words.length && !isTerminator(words[end] as ShellWord)) end += 1;
          parsed.options.push({
            written,
            names,
            index,
            valueIndex: Math.min(end, words.length - 1),
            command: { start: index + 1, end },
          });
          index = end + 1;
          continue;
        }
        if (attached !== '' || (multi === undefined && equals !== -1)) {
          if (
            record({ written, names, index, value: { ...word, text: attached }, valueIndex: index })
          )
            return parsed;
        } else if (
          names.some((name) => takesValue.has(name)) &&
          !names.some((name) => optional.has(name))
        ) {
          const value = words[index + 1];
          const stop = record({
            written,
            names,
            index,
            ...(value === undefined ? {} : { value, valueIndex: index + 1 }),
          });
          if (stop) return parsed;
          index += 1;
        } else record({ written, names, index });
        index += 1;
        continue;
      }
      // A cluster of one-letter options: -xzf FILE, -avze ssh, -ic CODE.
      let consumed = false;
      for (let position = 1; position < text.length; position += 1) {
        const name = `${text[0]}${text[position]}`;
        const rest = text.slice(position + 1);
        if (takesValue.has(name)) {
          const value = rest !== '' ? { ...word, text: rest } : words[index + 1];
          const valueIndex = rest !== '' ? index : index + 1;
          consumed = rest === '';
          if (
            record({
              written: name,
              names: [name],
              index,
              ...(value === undefined ? {} : { value, valueIndex }),
            })
          )
            return parsed;
          break;
        }
        if (optional.has(name)) {
          record({
            written: name,
            names: [name],
            index,
            ...(rest === '' ? {} : { value: { ...word, text: rest }, valueIndex: index }),
          });
          break;
        }
        record({ written: name, names: [name], index });
      }
      index += consumed ? 2 : 1;
      continue;
    }
    parsed.operands.push(index);
    if (spec.subcommands !== undefined && parsed.operands.length === 1) {
      parsed.subcommand = index;
      return parsed;
    }
    if (spec.wrapper !== undefined) {
      const assignment =
        spec.wrapper.assignments === true && word.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text);
      if (!assignment && skipped >= (spec.wrapper.skip ?? 0)) {
        parsed.commandStart = index;
        return parsed;
      }
      if (!assignment) skipped += 1;
    }
    if (spec.optionsEndAtOperand === true || spec.wrapper !== undefined) open = false;
    index += 1;
  }
  return parsed;
}

function isTerminator(word: ShellWord): boolean {
  return word.literal && (word.text === ';' || word.text === '+');
}

/** The names a written long option may stand for: itself, or (abbreviating) what it begins. */
function resolveLong(written: string, spec: ArgumentSpec, names: readonly string[]): string[] {
  if (names.includes(written) || spec.abbreviates !== true || written.length < 3) return [written];
  const candidates = names.filter((name) => name.startsWith(written));
  return candidates.length === 0 ? [written] : [...new Set(candidates)];
}
