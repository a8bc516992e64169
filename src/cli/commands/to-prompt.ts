import {
  type AvailableSkillEntry,
  type Diagnostic,
  renderAvailableSkillsXml,
} from '../../node/checks.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { checkForProperties, resolveTarget, skillsInTree } from './skill-paths.js';

export function run({ argv, io, deps }: CommandContext): number {
  const { positionals } = parseArgs(argv, {});
  if (positionals.length === 0) throw new UsageError('to-prompt needs at least one PATH');
  const entries: AvailableSkillEntry[] = [];
  const read = (directory: string, skillFileName: string): AvailableSkillEntry | string => {
    const check = checkForProperties(deps.fs, directory, skillFileName);
    if (check.properties === undefined) {
      const error = check.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      return `${directory}: ${error?.code ?? 'PROPERTIES_UNAVAILABLE'}: ${error?.message ?? 'name or description cannot be read'}`;
    }
    const real = deps.fs.realPath(directory) ?? directory;
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
    for (const skill of skillsInTree(deps.fs, target.directory, findings)) {
      const entry = read(skill.directory, skill.skillFileName);
      if (typeof entry === 'string') io.stderr.write(`skipped: ${printable(entry)}\n`);
      else entries.push(entry);
    }
  }
  io.stdout.write(`${renderAvailableSkillsXml(entries)}\n`);
  return 0;
}
