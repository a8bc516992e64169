import { validateSkillPaths } from '../../node/checks.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import {
  formatGithubReport,
  formatJsonReport,
  formatTextReport,
  jsonReportWriter,
} from '../format.js';
import { createStyle } from '../style.js';
import { PATH_WALK, threads } from './skill-paths.js';

const formats = new Set(['text', 'json', 'github']);

/**
 * The root of the repository, which GitHub resolves annotation paths against: $GITHUB_WORKSPACE
 * in a workflow, else the nearest folder at or above the current one holding .git, else the
 * current folder.
 */
function repositoryRoot(deps: CommandContext['deps']): string {
  const workspace = deps.env.GITHUB_WORKSPACE;
  if (workspace !== undefined && workspace !== '') return deps.resolvePath(deps.cwd, workspace);
  for (let folder = deps.cwd; ; ) {
    if (deps.fs.status(deps.resolvePath(folder, '.git'), false) !== undefined) return folder;
    const parent = deps.resolvePath(folder, '..');
    if (parent === folder) return deps.cwd;
    folder = parent;
  }
}

export function run({ argv, io, deps }: CommandContext): number {
  const { options, positionals } = parseArgs(argv, {
    json: { type: 'boolean' },
    lenient: { type: 'boolean' },
    format: { type: 'string' },
    'max-depth': { type: 'string' },
    'follow-symlinks': { type: 'boolean', negatable: true },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (positionals.length === 0) throw new UsageError('validate needs at least one PATH');
  const format = options.json === true ? 'json' : String(options.format ?? 'text');
  if (!formats.has(format)) {
    throw new UsageError(`unknown format '${format}' (use text, json or github)`);
  }
  if (options.json === true && options.format !== undefined && options.format !== 'json') {
    throw new UsageError(`--json contradicts --format ${String(options.format)}`);
  }
  const maxDepth = integerOption(options['max-depth'], 'max-depth', PATH_WALK.maxDepth);
  const quiet = options.quiet === true;
  if (quiet && format === 'json') throw new UsageError('--quiet is for text and github output');
  // One PATH's verdicts come in the order of their paths: the JSON document is written as they
  // come, and none is kept. Several PATHs are merged and sorted first.
  const streamed =
    format === 'json' && positionals.length === 1
      ? jsonReportWriter((text) => io.stdout.write(text))
      : undefined;
  const helper = threads(deps);
  const report = validateSkillPaths(
    positionals.map((path) => deps.resolvePath(deps.cwd, path)),
    {
      fs: deps.fs,
      mode: options.lenient === true ? 'lenient' : 'strict',
      walk: {
        ...PATH_WALK,
        maxDepth,
        followSymlinks: options['follow-symlinks'] === true,
        pathOrder: streamed !== undefined,
      },
      // Text and annotations print only skills with findings; keep memory flat on big trees.
      ...(format === 'json' ? {} : { retain: 'with-diagnostics' as const, properties: false }),
      ...(streamed === undefined ? {} : { retain: 'none' as const, onResult: streamed.add }),
      ...(helper === undefined ? {} : { helper }),
    },
  );
  if (streamed !== undefined) streamed.end(report);
  else if (format === 'json') io.stdout.write(formatJsonReport(report));
  else if (format === 'github')
    io.stdout.write(formatGithubReport(report, repositoryRoot(deps), quiet));
  else io.stdout.write(formatTextReport(report, deps.cwd, createStyle(io.stdout, deps.env), quiet));
  if (report.unreadablePaths) return 2;
  return report.summary.invalid > 0 || report.summary.unchecked > 0 ? 1 : 0;
}
