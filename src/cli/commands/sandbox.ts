import { type SkillEnvironmentStatus, SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { reportSkillError } from '../exit-codes.js';
import { writeWithBackpressure } from '../io.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { defaultWorkspace, openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';
import { formatSize, parseSize } from '../size.js';

/** What a run does with the environment of the skill's declared dependencies. */
function dependenciesLine(found: SkillEnvironmentStatus, name: string): string {
  const declared = found.kinds
    .map((kind) => (kind === 'python' ? 'scripts/requirements.txt' : 'scripts/package.json'))
    .join(' and ');
  switch (found.status) {
    case 'used':
      return `dependencies (${declared}): the environment skillhost setup made for this content, ${found.folder}, read-only`;
    case 'stale':
      return `dependencies (${declared}): not used: the skill changed since skillhost setup; run skillhost setup ${name} again`;
    case 'unreachable':
      return `dependencies (${declared}): not used: the user scripts run as cannot reach ${found.folder}`;
    default:
      return `dependencies (${declared}): none installed; run skillhost setup ${name}`;
  }
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    json: { type: 'boolean' },
    workspace: { type: 'string' },
    'workspace-writable': { type: 'boolean' },
    'no-workspace': { type: 'boolean' },
    expose: { type: 'string', multiple: true },
    out: { type: 'string' },
    memory: { type: 'string' },
    'allow-net': { type: 'boolean' },
  });
  const [action, name, script, ...rest] = args.positionals;
  if (action !== 'explain') throw new UsageError('sandbox needs explain NAME SCRIPT');
  if (name === undefined || script === undefined || rest.length > 0)
    throw new UsageError('sandbox explain needs a NAME and a SCRIPT');
  let maxMemoryBytes: number | undefined;
  if (args.options.memory !== undefined) {
    maxMemoryBytes = parseSize(String(args.options.memory));
    if (maxMemoryBytes === undefined) throw new UsageError('--memory needs a size (4G)');
  }
  const project = defaultWorkspace(
    deps.resolvePath(deps.cwd, String(args.options.project ?? '.')),
    deps,
  );
  const expose = (args.options.expose as readonly string[] | undefined) ?? [];
  const writable = args.options['workspace-writable'] === true;
  const folder =
    args.options.workspace === undefined
      ? project?.path
      : deps.resolvePath(deps.cwd, String(args.options.workspace));
  const outputs =
    args.options.out !== undefined
      ? deps.resolvePath(deps.cwd, String(args.options.out))
      : project?.outputs;
  const workspace =
    args.options['no-workspace'] === true || folder === undefined
      ? null
      : {
          path: folder,
          writable,
          ...(expose.length > 0 ? { expose } : {}),
          ...(writable || outputs === undefined ? {} : { outputs }),
        };
  let opened: ReturnType<typeof openRuntime> | undefined;
  try {
    opened = openRuntime(args, deps, io, {
      workspace,
      allowNetwork: args.options['allow-net'] === true,
      ...(maxMemoryBytes === undefined ? {} : { maxMemoryBytes }),
    });
    const plan = await opened.runtime.explainScript(name, script);
    if (args.options.json === true) {
      await writeWithBackpressure(io.stdout, `${JSON.stringify(plan, null, 2)}\n`);
      return 0;
    }
    const lines = [
      `sandbox ${plan.sandbox} · network ${plan.network ? 'shared with the host' : 'off'}`,
      `interpreter ${plan.interpreter}`,
      `working directory ${plan.workingDirectory}`,
      'mounts (in order; a later one covers an earlier one):',
      ...plan.mounts.map(
        (mount) =>
          `  ${mount.kind.padEnd(7)} ${mount.path}${mount.source === undefined || mount.source === mount.path ? '' : `  <- ${mount.source}`}`,
      ),
      'environment:',
      ...Object.entries(plan.environment).map(([key, value]) => `  ${key}=${value}`),
      `limits: ${plan.limits.join(' ')}`,
      ...(plan.memory === undefined
        ? []
        : [
            `memory: the data segment of each process, at most ${formatSize(plan.memory.bytes)} (--memory); no cgroup limit: ${plan.memory.reason}`,
          ]),
      ...(plan.dependencies === undefined ? [] : [dependenciesLine(plan.dependencies, name)]),
    ];
    await writeWithBackpressure(io.stdout, `${lines.map((line) => printable(line)).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (SkillhostError.isInstance(error)) return reportSkillError(io.stderr, error);
    throw error;
  } finally {
    await opened?.close();
  }
}
