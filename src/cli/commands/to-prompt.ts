import {
  type AvailableSkillEntry,
  availableSkillXml,
  type Diagnostic,
  renderAvailableSkillsXml,
} from '../../node/checks.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { checkForProperties, forEachSkillInTree, resolveTarget } from './skill-paths.js';

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
  const read = (
    directory: string,
    skillFileName: string,
    fs = deps.fs,
    realDirectory = deps.fs.realPath(directory) ?? directory,
  ): AvailableSkillEntry | string => {
    // Only the properties are wanted: the fields are checked only when there are none, for the
    // error that says why (a skill without them always has one in its frontmatter, which comes
    // before any of the body's: the body is not checked).
    let check = checkForProperties(fs, directory, skillFileName, { checkFields: false });
    if (check.properties === undefined) {
      check = checkForProperties(deps.fs, directory, skillFileName, { checkBody: false });
    }
    if (check.properties === undefined) {
      const error = check.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      return `${directory}: ${error?.code ?? 'PROPERTIES_UNAVAILABLE'}: ${error?.message ?? 'name or description cannot be read'}`;
    }
    const real = realDirectory;
    return {
      name: check.properties.name,
      description: check.properties.description,
      location: `${real === '/' ? '' : real}/${skillFileName}`,
    };
  };
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
    forEachSkillInTree(deps.fs, target.directory, findings, (skill, fs) => {
      const entry = read(skill.directory, skill.skillFileName, fs, skill.realDirectory);
      if (typeof entry === 'string') skipped.push(entry);
      else add(entry);
    });
    for (const entry of skipped) io.stderr.write(`skipped: ${printable(entry)}\n`);
    if (pending !== undefined) {
      io.stdout.write(`${pending}\n</available_skills>\n`);
      return 0;
    }
  }
  io.stdout.write(`${renderAvailableSkillsXml(entries)}\n`);
  return 0;
}
