import { readlinkSync, realpathSync } from 'node:fs';
import type { ScriptRunRequest } from '../deps.js';
import { isUnder, lstatOrUndefined, SYSTEM_FOLDERS } from './sandbox-system.js';
import { tmpfsBytes } from './sandbox-writes.js';

function limitArguments(request: ScriptRunRequest): string[] {
  const { limits } = request;
  return [
    `--nproc=${limits.maxProcesses}`,
    `--nofile=${limits.maxOpenFiles}`,
    `--fsize=${limits.maxFileBytes}`,
    // The data segment, not the address space: Node and others reserve address space they
    // never use, which an address-space limit would count (and kill them for).
    `--data=${limits.maxMemoryBytes}`,
    '--core=0',
  ];
}

/**
 * The command under the kernel's per-process limits: through `prlimit` when installed, else
 * through the shell's `ulimit` (which has no core limit, hence prlimit first).
 */
export function withLimits(
  command: readonly string[],
  request: ScriptRunRequest,
  prlimit: string | undefined,
): string[] {
  const { limits } = request;
  return prlimit === undefined
    ? [
        '/bin/sh',
        '-c',
        `ulimit -u ${limits.maxProcesses} -n ${limits.maxOpenFiles} -f ${Math.ceil(limits.maxFileBytes / 512)} -d ${Math.ceil(limits.maxMemoryBytes / 1024)}; exec "$@"`,
        'sh',
        ...command,
      ]
    : [prlimit, ...limitArguments(request), '--', ...command];
}

/**
 * The only places a sandboxed script may write besides a writable workspace: each a tmpfs
 * (memory) of the write budget's size, counted together by the write watcher. The root and /dev
 * are made read-only, so that nothing else can be written.
 */
export const WRITABLE_MOUNTS = ['/tmp', '/work', '/home/sandbox', '/dev/shm'] as const;

/** What the bubblewrap command line is made of. */
export interface BubblewrapPlan {
  readonly request: ScriptRunRequest;
  /** The interpreter on the host (its real path is bound in when outside the system folders). */
  readonly interpreter: string;
  readonly skillCopy: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly prlimit: string | undefined;
  /** The descriptor, in bubblewrap, of the seccomp program to install (none when undefined). */
  readonly seccompFd: number | undefined;
  /** The descriptor bubblewrap reads a byte from before it starts the script (the write watch). */
  readonly blockFd: number | undefined;
  /** The workspace's real path, and the mounts that hold its protected paths when writable. */
  readonly workspace:
    | {
        readonly path: string;
        readonly protection: readonly string[];
        /**
         * A read-only workspace whose new files are kept: the run folder (on the host) is the
         * working directory at the workspace's path, its links leading to the workspace, which
         * is shown read-only at VIEW_PATH.
         */
        readonly outputFolder?: string;
        /**
         * Entries of the workspace mounted read-only over their placeholders in the run folder
         * (the other entries are links into the view).
         */
        readonly mounted?: readonly string[];
      }
    | undefined;
  /** The skill directory's real path on the host: the staged copy is shown there too. */
  readonly skillPath?: string;
  /**
   * Paths covered by an unreadable placeholder (secret files of the workspace, as the script
   * reaches them; root-only system files when the script runs as root mapped into the sandbox).
   */
  readonly hidden?: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[];
  /**
   * The user's toolchain: host folders bound read-only at their own path, and the interpreter
   * then run as named (a virtual environment's `bin/python` must be run by that name).
   */
  readonly toolchain?: { readonly binds: readonly string[]; readonly asNamed: boolean };
  /** The skill's own node_modules (a trusted skill's), bound read-only into its copy. */
  readonly nodeModules?: string;
  /**
   * The Node packages `skillhost setup` installed for the skill, bound read-only at its
   * `scripts/node_modules` (where Node, CommonJS and ES modules alike, looks first).
   */
  readonly skillModules?: string;
  /** The placeholders, made by the runner. */
  readonly placeholders?: { readonly file: string; readonly directory: string };
}

/** Where a read-only workspace with a run folder is shown, for the run folder's links. */
export const VIEW_PATH = '/run/workspace';

/** The top-level entry of the workspace that `path` lies in, if it does. */
function topEntry(workspace: string, path: string): string | undefined {
  if (path === workspace || !isUnder(path, workspace)) return undefined;
  return path.slice(workspace.length + 1).split('/')[0];
}

/** Where the staged skill is shown besides /skill: its real path, as the script reaches it. */
function skillPlaces(plan: BubblewrapPlan): string[] {
  const { skillPath, workspace } = plan;
  if (skillPath === undefined) return [];
  if (workspace !== undefined && isUnder(workspace.path, skillPath)) return [];
  if (workspace?.outputFolder === undefined) return [skillPath];
  const entry = topEntry(workspace.path, skillPath);
  if (entry === undefined) return [skillPath];
  const inView = `${VIEW_PATH}${skillPath.slice(workspace.path.length)}`;
  return workspace.mounted?.includes(entry) === true ? [inView, skillPath] : [inView];
}

/**
 * bubblewrap's arguments: every namespace unshared, no capabilities, a read-only root with the
 * system folders read-only, the staged skill read-only at /skill, a fresh /work, /tmp, home and
 * /dev/shm of the write budget's size, the workspace when granted (its protected paths held),
 * an environment from scratch, the seccomp filter, and the script under its limits.
 */
export function bubblewrapArguments(plan: BubblewrapPlan): string[] {
  const { request } = plan;
  const size = String(tmpfsBytes(request.limits.maxWriteBytes));
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  // The host's network, when the user allowed it for this run (every other namespace stays apart).
  if (request.network === true) args.splice(1, 0, '--share-net');
  for (const name of SYSTEM_FOLDERS) {
    const host = `/${name}`;
    const entry = lstatOrUndefined(host);
    if (entry?.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
    else if (entry?.isDirectory()) args.push('--ro-bind', host, host);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  for (const mount of WRITABLE_MOUNTS) args.push('--size', size, '--tmpfs', mount);
  // /dev's own tmpfs would take files without limit: only its devices and /dev/shm stay usable.
  args.push('--remount-ro', '/dev');
  const realInterpreter = realpathSync(plan.interpreter);
  const toolchainBinds = plan.toolchain?.binds ?? [];
  if (
    !SYSTEM_FOLDERS.some((name) => isUnder(realInterpreter, `/${name}`)) &&
    !toolchainBinds.some((folder) => isUnder(realInterpreter, folder)) &&
    !(plan.workspace !== undefined && isUnder(realInterpreter, plan.workspace.path))
  ) {
    args.push('--ro-bind', realInterpreter, realInterpreter);
  }
  for (const folder of toolchainBinds) args.push('--ro-bind', folder, folder);
  const program = plan.toolchain?.asNamed === true ? plan.interpreter : realInterpreter;
  args.push('--ro-bind', plan.skillCopy, '/skill');
  let directory = '/work';
  if (request.workspace !== undefined && plan.workspace !== undefined) {
    const { path, outputFolder } = plan.workspace;
    if (outputFolder !== undefined) {
      args.push('--ro-bind', path, VIEW_PATH, '--bind', outputFolder, path);
      // Sources are host paths: the workspace's own entry, over its placeholder.
      for (const name of plan.workspace.mounted ?? [])
        args.push('--ro-bind', `${path}/${name}`, `${path}/${name}`);
    } else {
      args.push(request.workspace.writable ? '--bind' : '--ro-bind', path, path);
      args.push(...plan.workspace.protection);
    }
    directory = path;
  }
  // The skill where the model was told it is, read-only (unless it holds the workspace). Inside
  // a workspace shown through a run folder, the copy goes over the view (a mount cannot be made
  // through a link bubblewrap resolves on the host), and over the entry mounted from the view
  // when the skill lies under one (a mount does not show what is later mounted at its source).
  const skillAts = skillPlaces(plan);
  for (const place of skillAts) args.push('--ro-bind', plan.skillCopy, place);
  if (plan.nodeModules !== undefined) {
    args.push('--ro-bind', plan.nodeModules, '/skill/node_modules');
    for (const place of skillAts) args.push('--ro-bind', plan.nodeModules, `${place}/node_modules`);
  }
  if (plan.skillModules !== undefined) {
    args.push('--ro-bind', plan.skillModules, '/skill/scripts/node_modules');
    for (const place of skillAts)
      args.push('--ro-bind', plan.skillModules, `${place}/scripts/node_modules`);
  }
  for (const { path, kind } of plan.hidden ?? []) {
    if (plan.placeholders === undefined) break;
    args.push(
      '--ro-bind',
      kind === 'directory' ? plan.placeholders.directory : plan.placeholders.file,
      path,
    );
  }
  // Last of the mounts: the root's own tmpfs (where /home and mount points live) is read-only.
  args.push('--remount-ro', '/');
  if (plan.seccompFd !== undefined) args.push('--seccomp', String(plan.seccompFd));
  if (plan.blockFd !== undefined) args.push('--block-fd', String(plan.blockFd));
  args.push('--chdir', directory, '--clearenv');
  for (const [name, value] of Object.entries(plan.environment)) args.push('--setenv', name, value);
  args.push(
    '--',
    ...withLimits(
      [program, `/skill/${request.scriptPath}`, ...request.args],
      request,
      plan.prlimit,
    ),
  );
  return args;
}
