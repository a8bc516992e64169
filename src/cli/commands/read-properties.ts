import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { asciiJson, formatDiagnostic, printable } from '../format.js';
import { createStyle } from '../style.js';
import { checkForProperties, resolveTarget } from './skill-paths.js';

export function run({ argv, io, deps }: CommandContext): number {
  const { positionals } = parseArgs(argv, {});
  if (positionals.length !== 1) throw new UsageError('read-properties needs exactly one PATH');
  const path = deps.resolvePath(deps.cwd, positionals[0] as string);
  const target = resolveTarget(deps.fs, path);
  if (target.kind === 'missing') {
    io.stderr.write(`skillhost: error: ${printable(target.message)}\n`);
    return 2;
  }
  if (target.kind === 'tree') {
    io.stderr.write(`skillhost: error SKILL_FILE_MISSING: no SKILL.md in '${printable(path)}'\n`);
    return 1;
  }
  const check = checkForProperties(deps.fs, target.directory, target.skillFileName);
  if (check.properties === undefined) {
    const style = createStyle(io.stderr, deps.env);
    const errors = check.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    const shown = errors.length > 0 ? errors : check.diagnostics;
    for (const diagnostic of shown) {
      io.stderr.write(
        `${formatDiagnostic(diagnostic, check.excerpts.get(diagnostic.line), deps.cwd, style)}\n`,
      );
    }
    if (shown.length === 0) {
      io.stderr.write(
        'skillhost: error PROPERTIES_UNAVAILABLE: name or description cannot be read\n',
      );
    }
    return 1;
  }
  io.stdout.write(`${asciiJson(check.properties)}\n`);
  return 0;
}
