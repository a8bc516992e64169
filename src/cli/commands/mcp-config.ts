import { SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import type { CliDeps } from '../io.js';
import {
  CLIENT_TITLES,
  type ClientSetup,
  clientSetup,
  isMcpClient,
  MCP_CLIENTS,
  type ServerLaunch,
} from '../mcp-clients.js';
import { unifiedDiff } from '../text-diff.js';

/** The server entry's name unless told otherwise; it shows in the tools' names. */
const DEFAULT_NAME = 'skillhost';

function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new SkillhostError('USAGE', `mcp config needs ${what}, which this host does not give`);
  return value;
}

/** A path as shown: under the home folder as ~/…. */
function shown(path: string, deps: CliDeps): string {
  return path === deps.homeDir || path.startsWith(`${deps.homeDir}/`)
    ? `~${path.slice(deps.homeDir.length)}`
    : path;
}

/** Every edit's new text, or the first file that cannot be parsed (a coded error naming it). */
function plan(
  setup: ClientSetup,
  read: (path: string) => string | undefined,
): Array<{ path: string; before: string | undefined; after: string; purpose: string }> {
  return setup.edits.map((edit) => {
    const before = read(edit.path);
    try {
      return { path: edit.path, before, after: edit.apply(before), purpose: edit.purpose };
    } catch (error) {
      throw new SkillhostError(
        'CLIENT_CONFIG_INVALID',
        `${edit.path} is not rewritten: ${error instanceof Error ? error.message : String(error)}`,
        { details: { path: edit.path } },
      );
    }
  });
}

/**
 * `skillhost mcp config --client NAME [--scope user|project] [--write]`: the client's settings
 * for this server (printed), or merged into its files after showing the diff.
 */
export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    client: { type: 'string' },
    scope: { type: 'string' },
    write: { type: 'boolean' },
    name: { type: 'string' },
    project: { type: 'string' },
  });
  if (args.positionals.length > 0)
    throw new UsageError(`mcp config takes options only, not '${args.positionals[0]}'`);
  const client = args.options.client;
  if (typeof client !== 'string' || !isMcpClient(client))
    throw new UsageError(`mcp config needs --client, one of ${MCP_CLIENTS.join(', ')}`);
  const scope = args.options.scope ?? 'user';
  if (scope !== 'user' && scope !== 'project') throw new UsageError('--scope is user or project');
  const name = String(args.options.name ?? DEFAULT_NAME);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new UsageError('--name takes letters, digits, - and _ (at most 64)');
  const projectDir = deps.resolvePath(deps.cwd, String(args.options.project ?? '.'));
  const self = needs(deps.selfCommand, 'to know how it was started')();
  const launch: ServerLaunch = {
    name,
    command: self.command,
    args: [
      ...self.args,
      'mcp',
      '--client',
      client,
      ...(scope === 'project' ? ['--project', projectDir] : []),
      ...args.rest,
    ],
  };
  const setup = clientSetup(client, scope, launch, {
    projectDir,
    homeDir: deps.homeDir,
    env: deps.env,
    platform: deps.platform ?? 'linux',
    resolvePath: deps.resolvePath,
  });
  const title = `${CLIENT_TITLES[client]}, ${scope} scope`;
  const out: string[] = [];
  if (args.options.write !== true) {
    out.push(`${title}: add these to the files named (or run again with --write to merge them).`);
    for (const edit of setup.edits)
      out.push('', `${shown(edit.path, deps)}  (${edit.purpose})`, edit.snippet);
  } else {
    // Every file is read and merged before any is written: one that cannot be parsed stops all.
    const changes = plan(setup, needs(deps.readTextFile, 'to read files'));
    const write = needs(deps.writeTextFile, 'to write files');
    out.push(`${title}:`);
    for (const change of changes) {
      const diff = unifiedDiff(change.before ?? '', change.after, shown(change.path, deps));
      if (diff === '') {
        out.push('', `${shown(change.path, deps)}: already set`);
        continue;
      }
      out.push('', diff.replace(/\n$/, ''));
      write(change.path, change.after, scope === 'project' ? 0o644 : 0o600);
      out.push(`wrote ${shown(change.path, deps)}`);
    }
  }
  out.push('', 'To know:', ...setup.notes.map((note) => `  - ${note}`));
  // Every write goes through the CLI's guard, which shows control characters as escapes.
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
