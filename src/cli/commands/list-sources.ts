import type { ParsedArgs } from '../args.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import { configFile, type OpenedRegistry, projectLine } from '../registry-options.js';

/** What a source folder is, for `list --sources`. */
type SourceState = 'searched' | 'missing' | 'not trusted' | 'switched off';

/**
 * `skillhost list --sources`: every folder searched for skills (and the standard ones the user
 * config switches off), with its trust, whether it exists, and how many skills it holds.
 */
export function listSources(
  opened: OpenedRegistry,
  args: ParsedArgs,
  io: CliIO,
  deps: CliDeps,
): number {
  const { registry, settings } = opened;
  const counts = new Map<string, number>();
  for (const entry of registry.entries)
    counts.set(entry.source.id, (counts.get(entry.source.id) ?? 0) + 1);
  const rows = settings.folders.map(({ source, switchedOff }) => {
    const exists = deps.fs.status(source.root, true)?.kind === 'directory';
    const state: SourceState = switchedOff
      ? 'switched off'
      : !exists
        ? 'missing'
        : source.enabled
          ? 'searched'
          : 'not trusted';
    return { source, switchedOff, exists, state, skills: counts.get(source.id) ?? 0 };
  });
  if (args.options.json === true) {
    const document = {
      sources: rows.map((row) => ({
        ...row.source,
        switchedOff: row.switchedOff,
        exists: row.exists,
        state: row.state,
        skills: row.skills,
      })),
      project: {
        path: settings.projectDir,
        trusted: settings.projectTrusted,
        foundBy: settings.project.foundBy,
        ...(settings.project.marker === undefined ? {} : { marker: settings.project.marker }),
      },
      config: configFile(deps),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const table = [
    ['ID', 'FOR', 'TRUST', 'STATE', 'SKILLS', 'FOLDER'],
    ...rows.map((row) => [
      row.source.id,
      row.source.label ?? row.source.kind,
      row.source.trust,
      row.state,
      row.state === 'searched' || row.state === 'not trusted' ? String(row.skills) : '-',
      printable(row.source.root),
    ]),
  ];
  const widths = (table[0] as string[]).map((_, column) =>
    Math.max(...table.map((cells) => (cells[column] as string).length)),
  );
  const lines = table.map((cells) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number),
      )
      .join('  '),
  );
  lines.push('', projectLine(settings, deps));
  lines.push(
    `Switch a folder off by adding its ID to "disabledSources" in ${printable(configFile(deps))}.`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
