import {
  type AvailableSkillEntry,
  availableSkillXml,
  type Diagnostic,
  renderAvailableSkillsXml,
  type SkillCheck,
} from '../../node/checks.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { checkForProperties, checkSkillsInTree, resolveTarget, threads } from './skill-paths.js';

export function run({ argv, io, deps }: CommandContext): number {
  const { positionals } = parseArgs(argv, {});
  if (positionals.length === 0) throw new UsageError('to-prompt needs at least one PATH');
  const entries: AvailableSkillEntry[] = [];
  // One PATH that is a tree is written as its skills are read, in chunks; nothing is kept.
  let pending: string | undefined;
  const add = (entry: AvailableSkillEntry) => {
    if (pending === undefined) {
      entries.push(entry);
      return;
    }
    pending += `\n${availableSkillXml(entry)}`;
    if (pending.length >= 65_536) {
      io.stdout.write(pending);
      pending = '';
    }
  };
  // Only the name and description are wanted: the fields are checked only when there are none,
  // for the error that says why (a skill without them always has one in its frontmatter, which
  // comes before any of the body's: the body is not checked).
  const entryOf = (
    first: SkillCheck,
    directory: string,
    skillFileName: string,
    realDirectory: string,
  ): AvailableSkillEntry | string => {
    const check =
      first.properties === undefined
        ? checkForProperties(deps.fs, directory, skillFileName, {
            checkBody: false,
            properties: 'catalog',
          })
        : first;
    if (check.properties === undefined) {
      const error = check.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      return `${directory}: ${error?.code ?? 'PROPERTIES_UNAVAILABLE'}: ${error?.message ?? 'name or description cannot be read'}`;
    }
    return {
      name: check.properties.name,
      description: check.properties.description,
      location: `${realDirectory === '/' ? '' : realDirectory}/${skillFileName}`,
    };
  };
  const read = (directory: string, skillFileName: string) =>
    entryOf(
      checkForProperties(deps.fs, directory, skillFileName, {
        checkFields: false,
        properties: 'catalog',
      }),
      directory,
      skillFileName,
      deps.fs.realPath(directory) ?? directory,
    );
  for (const argument of positionals) {
    const path = deps.resolvePath(deps.cwd, argument);
    const target = resolveTarget(deps.fs, path);
    if (target.kind === 'missing') {
      io.stderr.write(`skillhost: error: ${printable(target.message)}\n`);
      return 2;
    }
    if (target.kind === 'skill') {
      const entry = read(target.directory, target.skillFileName);
      if (typeof entry === 'string') {
        io.stderr.write(`Error: ${printable(entry)}\n`);
        return 1;
      }
      entries.push(entry);
      continue;
    }
    const findings = (finding: Diagnostic) =>
      io.stderr.write(
        `${printable(finding.file)}: ${finding.severity} ${finding.code}: ${printable(finding.message)}\n`,
      );
    // The walk finds no link it does not follow: each skill's real path is the one it gives.
    const skipped: string[] = [];
    if (positionals.length === 1) pending = '<available_skills>';
    checkSkillsInTree(
      deps.fs,
      target.directory,
      { checkFields: false, properties: 'catalog' },
      findings,
      ({ found, check }) => {
        const entry = entryOf(check, found.directory, found.skillFileName, found.realDirectory);
        if (typeof entry === 'string') skipped.push(entry);
        else add(entry);
      },
      threads(deps),
    );
    for (const entry of skipped) io.stderr.write(`skipped: ${printable(entry)}\n`);
    if (pending !== undefined) {
      io.stdout.write(`${pending}\n</available_skills>\n`);
      return 0;
    }
  }
  io.stdout.write(`${renderAvailableSkillsXml(entries)}\n`);
  return 0;
}
