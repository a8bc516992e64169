/** A small, strict command-line parser: unknown options and missing values are usage errors. */
import { suggest, withSuggestions } from '../suggest.js';

export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly short?: string;
  readonly multiple?: boolean;
  /** For boolean options: also accept `--no-NAME`. */
  readonly negatable?: boolean;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface ParsedArgs {
  readonly options: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
  /** Arguments after a bare `--`. */
  readonly rest: readonly string[];
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseArgs(argv: readonly string[], specs: OptionSpecs): ParsedArgs {
  const options: Record<string, string | boolean | string[] | undefined> = Object.create(null);
  const positionals: string[] = [];
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) if (spec.short) byShort.set(spec.short, name);
  const assign = (name: string, spec: OptionSpec, value: string | boolean): void => {
    if (spec.multiple) {
      const list = (options[name] as string[] | undefined) ?? [];
      list.push(String(value));
      options[name] = list;
    } else options[name] = value;
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === '--') {
      return { options, positionals, rest: argv.slice(index + 1) };
    }
    if (argument.startsWith('--')) {
      const equals = argument.indexOf('=');
      let name = argument.slice(2, equals === -1 ? undefined : equals);
      const inline = equals === -1 ? undefined : argument.slice(equals + 1);
      let spec = specs[name];
      let negated = false;
      if (spec === undefined && name.startsWith('no-')) {
        const positive = specs[name.slice(3)];
        if (positive?.type === 'boolean' && positive.negatable) {
          spec = positive;
          name = name.slice(3);
          negated = true;
        }
      }
      if (spec === undefined) throw new UsageError(optionSuggestion(`--${name}`, specs));
      if (spec.type === 'boolean') {
        if (inline !== undefined) throw new UsageError(`option '--${name}' takes no value`);
        assign(name, spec, !negated);
        continue;
      }
      let value = inline;
      if (value === undefined) {
        const next = argv[index + 1];
        if (next === undefined) throw new UsageError(`option '--${name}' needs a value`);
        value = next;
        index += 1;
      }
      assign(name, spec, value);
      continue;
    }
    if (argument.startsWith('-') && argument.length > 1) {
      const name = byShort.get(argument.slice(1));
      const spec = name === undefined ? undefined : specs[name];
      if (name === undefined || spec === undefined) {
        throw new UsageError(optionSuggestion(argument, specs));
      }
      if (spec.type === 'boolean') {
        assign(name, spec, true);
        continue;
      }
      const next = argv[index + 1];
      if (next === undefined) throw new UsageError(`option '${argument}' needs a value`);
      assign(name, spec, next);
      index += 1;
      continue;
    }
    positionals.push(argument);
  }
  return { options, positionals, rest: [] };
}

/** "unknown option", with the closest options the command takes. */
function optionSuggestion(given: string, specs: OptionSpecs): string {
  const names: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    names.push(`--${name}`);
    if (spec.negatable === true) names.push(`--no-${name}`);
    if (spec.short !== undefined) names.push(`-${spec.short}`);
  }
  return withSuggestions(`unknown option '${given}'`, suggest(given, names));
}

/** Reads a positive integer option, or throws a usage error naming the option. */
export function integerOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text))
    throw new UsageError(`option '--${name}' needs a whole number, got '${text}'`);
  return Number(text);
}

/** Reads a positive whole number option (1 to 999,999,999), or throws a usage error naming it. */
export function positiveOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9]\d{0,8}$/.test(text))
    throw new UsageError(`option '--${name}' needs a positive whole number, got '${text}'`);
  return Number(text);
}

/** Reads `--timeout SECONDS` (more than 0, at most a day) as milliseconds, or throws a usage error. */
export function timeoutOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 24 * 3600)
    throw new UsageError('--timeout needs a number of seconds');
  return Math.round(seconds * 1000);
}
