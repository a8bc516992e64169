import { readlinkSync, realpathSync } from 'node:fs';
import type { ScriptRunRequest } from '../deps.js';
import { isUnder, lstatOrUndefined, SYSTEM_FOLDERS } from './sandbox-system.js';

function limitArguments(request: ScriptRunRequest): string[] {
  const { limits } = request;
  return [
    `--nproc=${limits.maxProcesses}`,
    `--nofile=${limits.maxOpenFiles}`,
    `--fsize=${limits.maxFileBytes}`,
    `--as=${limits.maxMemoryBytes}`,
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
        `ulimit -u ${limits.maxProcesses} -n ${limits.maxOpenFiles} -f ${Math.ceil(limits.maxFileBytes / 512)} -v ${Math.ceil(limits.maxMemoryBytes / 1024)}; exec "$@"`,
        'sh',
        ...command,
      ]
    : [prlimit, ...limitArguments(request), '--', ...command];
}

/** What the bubblewrap command line is made of. */
export interface BubblewrapPlan {
  readonly request: ScriptRunRequest;
  /** The interpreter on the host (its real path is bound in when outside the system folders). */
  readonly interpreter: string;
  readonly skillCopy: string;
  readonly work: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly prlimit: string | undefined;
}

/**
 * bubblewrap's arguments: every namespace unshared, no capabilities, an empty root with the
 * system folders read-only, the staged skill read-only at /skill, a fresh /work and /tmp, the
 * workspace when granted, an environment from scratch, and the script under its limits.
 */
export function bubblewrapArguments(plan: BubblewrapPlan): string[] {
  const { request } = plan;
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const name of SYSTEM_FOLDERS) {
    const host = `/${name}`;
    const entry = lstatOrUndefined(host);
    if (entry?.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
    else if (entry?.isDirectory()) args.push('--ro-bind', host, host);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/home/sandbox');
  const realInterpreter = realpathSync(plan.interpreter);
  if (!SYSTEM_FOLDERS.some((name) => isUnder(realInterpreter, `/${name}`))) {
    args.push('--ro-bind', realInterpreter, realInterpreter);
  }
  args.push('--ro-bind', plan.skillCopy, '/skill', '--bind', plan.work, '/work');
  let directory = '/work';
  if (request.workspace !== undefined) {
    args.push(
      request.workspace.writable ? '--bind' : '--ro-bind',
      request.workspace.path,
      request.workspace.path,
    );
    directory = request.workspace.path;
  }
  args.push('--chdir', directory, '--clearenv');
  for (const [name, value] of Object.entries(plan.environment)) args.push('--setenv', name, value);
  args.push(
    '--',
    ...withLimits(
      [realInterpreter, `/skill/${request.scriptPath}`, ...request.args],
      request,
      plan.prlimit,
    ),
  );
  return args;
}
