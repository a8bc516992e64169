import { baseName } from '../shell-words.js';
import { parseArguments } from './arguments.js';
import { programSpec } from './reading.js';
import type { ArgumentSpec, ProgramRow } from './spec.js';

const checkNames: Readonly<Record<string, string>> = {
  'sed-script': 'script with e or w',
  'awk-program': 'program with system(), a pipe or print >',
  'git-config-write': 'that writes',
  subscript: 'a[$(...)]',
};

function rowName(row: ProgramRow, label: string): string | undefined {
  switch (row.kind) {
    case 'option':
      // A row without a reason only names a command (python -m MODULE): nothing asks.
      return row.reason === undefined ? undefined : `${label} ${row.options.join('/')}`;
    case 'operand':
      if (row.match === 'none') return `${label} without a program file`;
      if (row.match === 'stdin') return `${label} -`;
      return `${label} ${row.label ?? 'OPERAND'}`;
    case 'always':
      return label;
    case 'check':
      return `${label} ${checkNames[row.check] ?? row.check}`;
  }
}

function rowsOf(level: ArgumentSpec, label: string): string[] {
  const names = (level.rows ?? [])
    .map((row) => rowName(row, label))
    .filter((name): name is string => name !== undefined);
  if (level.flags !== undefined) names.push(`${label} with an option skillhost does not know`);
  if (level.wrapper !== undefined) names.push(`${label} COMMAND`);
  const table = level.subcommands;
  if (table === undefined) return names;
  if (table.none !== undefined) names.push(`${label} alone`);
  // Sub-commands that share a spec are named together: npm install/i/add.
  const groups = new Map<ArgumentSpec, string[]>();
  for (const [name, spec] of Object.entries(table.specs)) {
    const group = groups.get(spec) ?? [];
    group.push(name);
    groups.set(spec, group);
  }
  for (const [spec, group] of groups) {
    const shown = group.length > 3 ? `${group.slice(0, 3).join('/')}/...` : group.join('/');
    names.push(...rowsOf(spec, `${label} ${shown}`));
  }
  if (table.unknown !== 'command') names.push(`${label} NAME (not one skillhost knows)`);
  return names;
}

/**
 * The rows of the option table that still ask under a command grant with these words: for
 * `Bash(git:*)`, `git -c`, `git clone -u/--upload-pack`, `git config that writes`, ...; for
 * `Bash(git log:*)` only git log's. Empty for a program the table does not describe.
 */
export function tableRowsFor(argv: readonly string[]): string[] {
  const program = argv[0];
  if (program === undefined) return [];
  let level: ArgumentSpec | undefined = programSpec(program);
  if (level === undefined) return [];
  let label = baseName(program);
  let start = 1;
  for (;;) {
    const words = argv.slice(start).map((text) => ({ text, literal: true, quoted: false }));
    const parsed = parseArguments(
      [{ text: program, literal: true, quoted: false }, ...words],
      level,
      1,
      label,
      [],
    );
    if (parsed.commandStart !== undefined)
      return tableRowsFor(argv.slice(start + parsed.commandStart - 1));
    const sub = parsed.subcommand === undefined ? undefined : argv[start + parsed.subcommand - 1];
    const table: ArgumentSpec['subcommands'] = level.subcommands;
    if (sub !== undefined && table !== undefined && Object.hasOwn(table.specs, sub)) {
      level = table.specs[sub] as ArgumentSpec;
      label = `${label} ${sub}`;
      start += parsed.subcommand as number;
      continue;
    }
    // Past the first operand of a program whose options end there (a script), no row applies.
    if (level.optionsEndAtOperand === true && parsed.operands.length > 0) return [];
    return rowsOf(level, label);
  }
}
