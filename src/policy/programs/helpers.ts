/** Helpers the table's files share. */
import type { ArgumentSpec, ProgramRow } from './spec.js';

/** Reasons the table's files share. */
export const INLINE = 'runs program text given on the command line';
export const FROM_INPUT = 'reads its program from its input, which the command line does not show';

/** No operand, or `-` / `/dev/stdin`: the program reads its code from its input. */
export function stdinRows(unless: readonly string[]): ProgramRow[] {
  return [
    { kind: 'operand', match: 'none', reason: FROM_INPUT, unless },
    { kind: 'operand', match: 'stdin', first: true, reason: FROM_INPUT, unless },
  ];
}

/** The same spec under several sub-command names. */
export function same(names: readonly string[], spec: ArgumentSpec): Record<string, ArgumentSpec> {
  return Object.fromEntries(names.map((name) => [name, spec]));
}

/** Sub-commands that only do the program's own work. */
export function plain(names: readonly string[]): Record<string, ArgumentSpec> {
  return same(names, {});
}

/** A sub-command every use of which asks. */
export function askAlways(reason: string): ArgumentSpec {
  return { rows: [{ kind: 'always', reason }] };
}

const FETCHES = "runs a package's program, fetching it from the registry when it is not installed";

/** npx and the like: a program that runs a package's program (`-c CMD` runs a shell command). */
export function runsPackages(extra: ArgumentSpec = {}): ArgumentSpec {
  return {
    values: ['-p', '--package'],
    rows: [
      {
        kind: 'option',
        options: ['-c', '--call'],
        payload: 'shell',
        reason: 'runs the shell command it is given',
      },
    ],
    wrapper: { reason: FETCHES },
    ...extra,
  };
}

/** A sub-command that writes configuration: every use asks. */
export function writesConfig(what: string): ArgumentSpec {
  return askAlways(`writes ${what}`);
}
