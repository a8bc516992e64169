import { skillFindings } from '../../internal.js';
import type { RegistryEntry, SkillStatus } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, printable } from '../format.js';
import { lockStates } from '../installed.js';
import { writeWithBackpressure } from '../io.js';
import { jsonString } from '../json-items.js';
import { JSON_OPTION, openRegistry, projectLine, SOURCE_OPTIONS } from '../registry-options.js';
import { createStyle } from '../style.js';

function diagnosticJson(entry: RegistryEntry) {
  return entry.diagnostics.map((diagnostic) => ({
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    file: diagnostic.file,
    line: diagnostic.line,
    column: diagnostic.column,
  }));
}

export function entryJson(entry: RegistryEntry, lock?: 'locked' | 'modified') {
  return {
    name: entry.name,
    address: entry.address,
    source: entry.source.id,
    sourceKind: entry.source.kind,
    trust: entry.source.trust,
    status: entry.status,
    path: entry.directory,
    // The name its SKILL.md claims, when it is not the directory's name the skill is known by.
    ...(entry.metadata === undefined || entry.metadata.name === entry.name
      ? {}
      : { claimedName: entry.metadata.name }),
    ...(entry.metadata === undefined ? {} : { description: entry.metadata.description }),
    ...(entry.shadowedBy === undefined ? {} : { shadowedBy: entry.shadowedBy }),
    ...(entry.identical === undefined ? {} : { identical: entry.identical }),
    ...(lock === undefined ? {} : { lock }),
    diagnostics: diagnosticJson(entry),
  };
}

/**
 * `entryJson(entry, lock)` as an item of the `skills` list of the indented document writes it
 * (`JSON.stringify(document, null, 2)`), made directly: ten thousand entries are neither built
 * as objects nor walked by the indenting stringify. A test holds the two equal.
 */
export function entryJsonText(entry: RegistryEntry, lock?: 'locked' | 'modified'): string {
  const { metadata, source } = entry;
  let text = `{\n      "name": ${jsonString(entry.name)},\n      "address": ${jsonString(entry.address)},\n      "source": ${jsonString(source.id)},\n      "sourceKind": ${jsonString(source.kind)},\n      "trust": ${jsonString(source.trust)},\n      "status": ${jsonString(entry.status)},\n      "path": ${jsonString(entry.directory)},`;
  if (metadata !== undefined) {
    if (metadata.name !== entry.name)
      text += `\n      "claimedName": ${jsonString(metadata.name)},`;
    text += `\n      "description": ${jsonString(metadata.description)},`;
  }
  if (entry.shadowedBy !== undefined)
    text += `\n      "shadowedBy": ${jsonString(entry.shadowedBy)},`;
  if (entry.identical !== undefined) text += `\n      "identical": ${entry.identical},`;
  if (lock !== undefined) text += `\n      "lock": ${jsonString(lock)},`;
  const diagnostics =
    entry.diagnostics.length === 0
      ? '[]'
      : // Line breaks in the text are the indentation's: a string's own are escaped.
        JSON.stringify(diagnosticJson(entry), null, 2).replace(/\n/g, '\n      ');
  return `${text}\n      "diagnostics": ${diagnostics}\n    }`;
}

function shortMessage(message: string, length = 100): string {
  const line = message.replace(/\s+/g, ' ');
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...SOURCE_OPTIONS,
    ...JSON_OPTION,
    sources: { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (args.positionals.length > 0) throw new UsageError('list takes no arguments');
  if (args.options.verbose === true && args.options.quiet === true)
    throw new UsageError('--verbose and --quiet contradict each other');
  if (args.options.json === true && (args.options.verbose === true || args.options.quiet === true))
    throw new UsageError(
      '--verbose and --quiet are for text output (--json lists every diagnostic)',
    );
  if (
    args.options.sources === true &&
    (args.options.verbose === true || args.options.quiet === true)
  )
    throw new UsageError('--sources takes neither --verbose nor --quiet');
  const opened = openRegistry(args, deps);
  if (args.options.sources === true)
    return (await import('./list-sources.js')).listSources(opened, args, io, deps);
  const { registry, projectDir, projectTrusted, settings } = opened;
  // Installed skills whose files no longer match skills-lock.json are noted as modified.
  const locks = lockStates(projectDir, deps);
  const entries = registry.entries;
  const counts: Record<SkillStatus, number> = {
    active: 0,
    shadowed: 0,
    skipped: 0,
    untrusted: 0,
    disabled: 0,
  };
  for (const entry of entries) counts[entry.status] += 1;
  if (args.options.json === true) {
    // Written a batch at a time: ten thousand skills never become one string in memory.
    let chunk = `{\n  "skills": [${entries.length === 0 ? '' : '\n    '}`;
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as RegistryEntry;
      chunk += `${index === 0 ? '' : ',\n    '}${entryJsonText(entry, locks.get(entry.directory))}`;
      if (chunk.length > 65_536) {
        await writeWithBackpressure(io.stdout, chunk);
        chunk = '';
      }
    }
    const rest = {
      sources: registry.sources.map((source) => ({ ...source })),
      project: {
        path: projectDir,
        trusted: projectTrusted,
        foundBy: settings.project.foundBy,
        ...(settings.project.marker === undefined ? {} : { marker: settings.project.marker }),
      },
      diagnostics: registry.diagnostics.map((diagnostic) => ({ ...diagnostic })),
      summary: { skills: entries.length, ...counts },
    };
    const tail = JSON.stringify(rest, null, 2).slice(1);
    await writeWithBackpressure(
      io.stdout,
      `${chunk}${entries.length === 0 ? '' : '\n  '}],${tail}\n`,
    );
    return 0;
  }

  const quiet = args.options.quiet === true;
  const verbose = args.options.verbose === true;
  const shown = quiet ? entries.filter((entry) => entry.status === 'skipped') : entries;
  const style = createStyle(io.stdout, deps.env);
  const row = (entry: RegistryEntry): string[] => {
    const findings = skillFindings(entry);
    const first = findings[0];
    const notes = [
      entry.metadata === undefined || entry.metadata.name === entry.name
        ? ''
        : `claims name '${printable(entry.metadata.name)}'`,
      entry.shadowedBy === undefined
        ? ''
        : `${entry.identical ? 'identical to' : 'shadowed by'} ${entry.shadowedBy}`,
      locks.get(entry.directory) === 'modified'
        ? 'modified since installed (skills-lock.json)'
        : '',
      first === undefined || verbose
        ? ''
        : `${first.severity} ${first.code}: ${printable(shortMessage(first.message))}${findings.length > 1 ? ` (+${findings.length - 1} more: --verbose)` : ''}`,
    ].filter((note) => note !== '');
    return [
      printable(entry.name),
      entry.source.id,
      entry.source.trust,
      entry.status,
      printable(displayPath(entry.directory, deps.cwd)),
      notes.join('; '),
    ];
  };
  const header = ['NAME', 'SOURCE', 'TRUST', 'STATUS', 'PATH', 'NOTES'];
  // Column widths first, then rows written as they are made: the table is never whole in memory.
  const widths = header.map((title) => title.length);
  for (const entry of shown) {
    row(entry).forEach((cell, column) => {
      widths[column] = Math.max(widths[column] as number, cell.length);
    });
  }
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  let chunk = shown.length === 0 && quiet ? '' : `${style.bold(line(header))}\n`;
  for (const entry of shown) {
    const text = line(row(entry));
    chunk += `${entry.status === 'skipped' ? style.red(text) : entry.status === 'active' ? text : style.dim(text)}\n`;
    if (verbose) {
      for (const finding of skillFindings(entry)) {
        const place = finding.line > 0 ? `:${finding.line}:${finding.column}` : '';
        chunk += `    ${finding.severity} ${finding.code}: ${printable(finding.message)} (${printable(displayPath(finding.file, deps.cwd))}${place})\n`;
      }
    }
    if (chunk.length > 65_536) {
      await writeWithBackpressure(io.stdout, chunk);
      chunk = '';
    }
  }
  const lines = chunk === '' ? [] : [chunk.slice(0, -1)];
  if (entries.length === 0) lines.push('(no skills found)');
  lines.push(
    ...(lines.length === 0 ? [] : ['']),
    `${entries.length} skill${entries.length === 1 ? '' : 's'}: ${counts.active} active, ${counts.shadowed} shadowed, ${counts.skipped} skipped, ${counts.untrusted} untrusted${counts.disabled > 0 ? `, ${counts.disabled} disabled` : ''}`,
  );
  // What the search itself ran into (a limit reached, a loop, a folder it could not read):
  // skills may be missing from the table, so say so.
  for (const finding of registry.diagnostics) {
    if (quiet && finding.severity !== 'error') continue;
    lines.push(
      `${finding.severity} ${finding.code}: ${printable(finding.message)} (${printable(displayPath(finding.file, deps.cwd))})`,
    );
  }
  if (!quiet) lines.push(projectLine(settings, deps));
  if (counts.untrusted > 0 && !quiet) {
    lines.push(
      `Project skills in ${printable(projectDir)} are not loaded until the folder is trusted: run 'skillhost trust' there (or pass --trust).`,
    );
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
