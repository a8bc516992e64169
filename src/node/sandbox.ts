import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_SCRIPT_LIMITS } from '../core.js';
import type {
  SandboxExplanation,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
  WrittenFiles,
} from '../deps.js';
import { SkillhostError } from '../errors.js';
import { bubblewrapArguments, VIEW_PATH, WRITABLE_MOUNTS, withLimits } from './sandbox-command.js';
import { execute, type ProcessPlan } from './sandbox-process.js';
import { runShellCommand } from './sandbox-shell.js';
import { stageSkill } from './sandbox-staging.js';
import {
  childProcess,
  findExecutable,
  interpreterPath,
  isUnder,
  lstatOrUndefined,
  SYSTEM_FOLDERS,
  SYSTEM_PATH,
} from './sandbox-system.js';
import { resolveToolchain, type Toolchain } from './sandbox-toolchains.js';
import {
  changedFiles,
  collectOutputs,
  makeOutputFolder,
  makePlaceholders,
  newRunId,
  normaliseExposed,
  type OutputFolder,
  pathHints,
  rootOnlySystemEntries,
  scanWorkspace,
  type WorkspaceScan,
} from './sandbox-view.js';
import { protectWorkspace } from './sandbox-workspace.js';
import { canWatchWrites, seccompProgram } from './sandbox-writes.js';

const NOBODY = 65534;

export interface SandboxOptions {
  /** The user's home folder (never visible inside the sandbox; kept for the unsandboxed fallback). */
  readonly homeDir?: string;
  /** Where run folders are made (default: the system's temporary folder). */
  readonly tempDir?: string;
  /**
   * When this process runs as root, run scripts as the unprivileged user `nobody` (default true):
   * a root-owned secret stays unreadable even though the file system is visible.
   */
  readonly dropRoot?: boolean;
  /**
   * The bubblewrap program: a path, or false for none (then every run is refused unless
   * unsandboxed runs are allowed). Default: `bwrap` from the system folders.
   */
  readonly bubblewrap?: string | false;
  /**
   * Where the user's toolchains are looked for (see sandbox-toolchains.ts): the PATH searched
   * for `python3` and `node`, and the variables that point at environments (`VIRTUAL_ENV`,
   * `PYENV_ROOT`, `PYENV_VERSION`, `ASDF_DATA_DIR`). Default: this process's environment; `false`
   * for the system's interpreters only.
   */
  readonly toolchains?: { readonly env: Readonly<Record<string, string | undefined>> } | false;
}

interface SandboxStatus {
  readonly available: boolean;
  readonly reason: string;
  readonly program?: string;
}

/** Whether uid/gid may search every folder up to `path`, and read (and write) `path` itself. */
function reachable(path: string, uid: number, gid: number, write: boolean): boolean {
  const allowed = (folder: string, bits: number): boolean => {
    const status = statSync(folder);
    const shift = status.uid === uid ? 6 : status.gid === gid ? 3 : 0;
    return ((status.mode >> shift) & bits) === bits;
  };
  let folder = dirname(path);
  for (;;) {
    if (!allowed(folder, 1)) return false;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return allowed(path, write ? 7 : 5);
}

/**
 * Whom a script runs as when skillhost runs as root: the owner of a granted workspace when that
 * is an ordinary user; `nobody` when there is none, or when `nobody` can use a root-owned one;
 * else (a root-owned workspace `nobody` cannot use) root mapped into the sandbox's user
 * namespace without any capability, with the system's root-only files hidden (`mappedRoot`).
 * A workspace the chosen user cannot use is refused up front rather than failing inside.
 */
function runAs(workspace: ScriptRunRequest['workspace']): {
  readonly user: { uid: number; gid: number } | undefined;
  readonly mappedRoot: boolean;
} {
  const nobody = { uid: NOBODY, gid: NOBODY };
  if (workspace === undefined) return { user: nobody, mappedRoot: false };
  const status = statSync(workspace.path);
  if (status.uid === 0) {
    if (reachable(workspace.path, NOBODY, NOBODY, workspace.writable))
      return { user: nobody, mappedRoot: false };
    return { user: undefined, mappedRoot: true };
  }
  const user = { uid: status.uid, gid: status.gid };
  if (!reachable(workspace.path, user.uid, user.gid, workspace.writable)) {
    throw new SkillhostError(
      workspace.writable ? 'WORKSPACE_NOT_WRITABLE' : 'SANDBOX_UNAVAILABLE',
      `Scripts run as the workspace's owner, uid ${user.uid}, which cannot ${workspace.writable ? 'write to' : 'read'} the workspace ${workspace.path}; make it accessible to that user${workspace.writable ? ', or grant it read-only' : ''}`,
    );
  }
  return { user, mappedRoot: false };
}

/** A writable workspace the script's user (this process's, not root) cannot write: refused. */
function checkWritable(path: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new SkillhostError(
      'WORKSPACE_NOT_WRITABLE',
      `The workspace ${path} is granted writable, but this user cannot write to it; make it writable, or grant it read-only`,
    );
  }
}

/**
 * Whether bubblewrap (the system's `bwrap`, or the program given) is installed and can make
 * namespaces here. Each call checks again; a runner checks once and keeps the answer.
 */
export function probeBubblewrap(program: string | false = 'bwrap'): SandboxStatus {
  if (program === false)
    return { available: false, reason: 'the sandbox is switched off (bubblewrap: false)' };
  const bwrap = program.includes('/') ? program : findExecutable(program);
  if (bwrap === undefined || lstatOrUndefined(bwrap) === undefined)
    return { available: false, reason: `bubblewrap (${program}) is not installed` };
  const run = childProcess().spawnSync(
    bwrap,
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--', '/bin/true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  return run.status === 0
    ? { available: true, reason: `bubblewrap at ${bwrap}`, program: bwrap }
    : {
        available: false,
        reason: `bubblewrap cannot create a sandbox here: ${(run.stderr || String(run.error ?? '')).trim()}`,
      };
}

/**
 * Runs skill scripts in bubblewrap: no network, the root file system read-only, homes and
 * temporary folders replaced by empty ones, the skill staged read-only at /skill (the verified
 * script bytes, not whatever is on disk now), writes only to a fresh /work, an environment made
 * from scratch, a PID namespace, resource limits, a wall-clock timeout that kills every process
 * of the run, and capped output. Without bubblewrap it refuses, unless unsandboxed runs are
 * explicitly allowed.
 */
export function createSandboxRunner(options: SandboxOptions = {}): ScriptRunner {
  // Probed on first need and kept for the runner's life: one spawn, not one per run.
  let status: SandboxStatus | undefined;
  const sandbox = () => {
    status ??= probeBubblewrap(options.bubblewrap);
    return status;
  };
  return {
    sandbox,
    run: (request) => runScript(request, options, sandbox()) as Promise<ScriptRunResult>,
    explain: (request) =>
      runScript(request, options, sandbox(), true) as Promise<SandboxExplanation>,
    runCommand: (request) =>
      runShellCommand(
        request,
        (script) => runScript(script, options, sandbox()) as Promise<ScriptRunResult>,
        options.tempDir,
      ),
  };
}

/** Reads a process plan back as what the script would see. */
function describePlan(plan: ProcessPlan, request: ScriptRunRequest): SandboxExplanation {
  const argv = plan.argv;
  const mounts: { kind: string; path: string; source?: string }[] = [];
  const environment: Record<string, string> = {};
  let workingDirectory = plan.cwd ?? '';
  let limits: string[] = [];
  let interpreter = plan.command;
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] as string;
    const next = argv[index + 1] as string;
    const after = argv[index + 2] as string;
    if (word === '--') {
      const rest = argv.slice(index + 1);
      const split = rest.indexOf('--');
      limits =
        split === -1
          ? plan.sandbox === 'none'
            ? argv.slice(0, index).filter((item) => item.startsWith('--'))
            : []
          : rest.slice(1, split).filter((item) => item.startsWith('--'));
      interpreter = (split === -1 ? rest[0] : rest[split + 1]) ?? interpreter;
      break;
    }
    if (word === '--ro-bind' || word === '--bind') {
      const hidden = next.endsWith('/hidden-file') || next.endsWith('/hidden-directory');
      mounts.push(
        hidden
          ? { kind: 'hidden', path: after }
          : { kind: word === '--bind' ? 'rw' : 'ro', path: after, source: next },
      );
      index += 2;
    } else if (word === '--tmpfs' || word === '--proc' || word === '--dev') {
      mounts.push({ kind: word.slice(2), path: next });
      index += 1;
    } else if (word === '--symlink') {
      mounts.push({ kind: 'symlink', path: after, source: next });
      index += 2;
    } else if (word === '--setenv') {
      environment[next] = after;
      index += 2;
    } else if (word === '--chdir') {
      workingDirectory = next;
      index += 1;
    } else if (['--size', '--seccomp', '--block-fd', '--remount-ro', '--cap-drop'].includes(word)) {
      index += 1;
    }
  }
  if (plan.sandbox === 'none') Object.assign(environment, plan.environment);
  return {
    sandbox: plan.sandbox,
    interpreter,
    workingDirectory,
    mounts,
    environment,
    limits,
    network: request.network === true,
    command: [plan.command, ...argv],
  };
}

/** The user's toolchain for a run, unless the runner was told to use the system's only. */
function findToolchain(
  request: ScriptRunRequest,
  options: SandboxOptions,
  workspace: string | undefined,
): Toolchain | undefined {
  if (options.toolchains === false) return undefined;
  const env = options.toolchains?.env ?? process.env;
  return resolveToolchain(request.interpreter, {
    searchPath: env.PATH ?? SYSTEM_PATH,
    env,
    homeDir: options.homeDir ?? env.HOME,
    workspace,
  });
}

/**
 * The toolchain as the script's user can use it: folders it cannot reach are left out, and an
 * interpreter it cannot reach gives way to the system's (with nothing of the toolchain).
 */
function reachableToolchain(
  toolchain: Toolchain,
  user: { uid: number; gid: number },
  interpreter: ScriptRunRequest['interpreter'],
): Toolchain | undefined {
  const can = (path: string) => {
    try {
      return reachable(path, user.uid, user.gid, false);
    } catch {
      return false;
    }
  };
  let real: string;
  try {
    real = realpathSync(toolchain.interpreter);
  } catch {
    real = toolchain.interpreter;
  }
  if (
    toolchain.origin !== 'system' &&
    (!can(dirname(toolchain.interpreter)) || !can(dirname(real)))
  ) {
    const system = interpreterPath(interpreter);
    return system === undefined
      ? undefined
      : { interpreter: system, origin: 'system', binds: [], env: {}, pathPrefix: [] };
  }
  const binds = toolchain.binds.filter(can);
  return { ...toolchain, binds };
}

/** The request with a write budget even when a caller left it out (a budget always applies). */
function withWriteBudget(request: ScriptRunRequest): ScriptRunRequest {
  const given = request.limits.maxWriteBytes;
  if (Number.isSafeInteger(given) && given > 0) return request;
  return {
    ...request,
    limits: { ...request.limits, maxWriteBytes: DEFAULT_SCRIPT_LIMITS.maxWriteBytes },
  };
}

async function runScript(
  given: ScriptRunRequest,
  options: SandboxOptions,
  status: SandboxStatus,
  explainOnly = false,
): Promise<ScriptRunResult | SandboxExplanation> {
  const request = withWriteBudget(given);
  if (!status.available && request.allowUnsandboxed !== true) {
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      `Cannot run scripts in a sandbox: ${status.reason}`,
    );
  }
  const workspaceReal =
    request.workspace === undefined ? undefined : realpathSync(request.workspace.path);
  const toolchain = status.available ? findToolchain(request, options, workspaceReal) : undefined;
  const interpreter = toolchain?.interpreter ?? interpreterPath(request.interpreter);
  if (interpreter === undefined) {
    throw new SkillhostError(
      'SCRIPT_INTERPRETER_UNKNOWN',
      `The interpreter ${request.interpreter} is not installed in ${SYSTEM_PATH}`,
    );
  }
  const writable = request.workspace?.writable === true;
  if (status.available && writable && !canWatchWrites()) {
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      'Cannot count what a script writes to a writable workspace here (no /proc/PID/io or /proc/PID/task/TID/children); grant the workspace read-only',
    );
  }
  // Checked, and its placeholders made, before anything else: a refusal leaves nothing behind.
  const protectedWorkspace =
    status.available && request.workspace?.writable === true
      ? protectWorkspace(request.workspace, options.homeDir)
      : undefined;
  let root: string | undefined;
  let seccomp: number | undefined;
  let outputFolder: OutputFolder | undefined;
  try {
    root = mkdtempSync(join(options.tempDir ?? tmpdir(), 'skillhost-run-'));
    const skillCopy = join(root, 'skill');
    const asRoot = process.getuid?.() === 0;
    const chosen =
      asRoot && options.dropRoot !== false && status.available
        ? runAs(request.workspace)
        : { user: undefined, mappedRoot: false };
    const user = chosen.user;
    if (!asRoot && writable && request.workspace !== undefined)
      checkWritable(request.workspace.path);
    const notStaged = stageSkill({
      source: request.skillDirectory,
      target: skillCopy,
      trusted: request.trusted === true,
      user: user ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
      keepOwners: asRoot,
      script: { path: request.scriptPath, bytes: request.scriptBytes },
    });
    // bubblewrap, started as the script's user, must be able to reach the staged skill.
    if (user !== undefined) chmodSync(root, 0o711);
    const prlimit = findExecutable('prlimit');
    // The toolchain's folders, where the script's user can reach them (else the system's).
    const usable =
      toolchain === undefined || user === undefined
        ? toolchain
        : reachableToolchain(toolchain, user, request.interpreter);
    const projectModules =
      workspaceReal === undefined ? undefined : join(workspaceReal, 'node_modules');
    const nodePath =
      request.interpreter === 'node' &&
      projectModules !== undefined &&
      lstatOrUndefined(projectModules)?.isDirectory() === true
        ? { NODE_PATH: projectModules }
        : {};
    const environment: Record<string, string> = {
      PATH: [...(usable?.pathPrefix ?? []), SYSTEM_PATH].join(':'),
      HOME: '/home/sandbox',
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      SKILL_DIR: '/skill',
      ...usable?.env,
      ...nodePath,
      ...request.env,
    };
    const skillModules = join(request.skillDirectory, 'node_modules');
    const nodeModules =
      request.trusted === true &&
      request.interpreter === 'node' &&
      lstatOrUndefined(skillModules)?.isDirectory() === true &&
      (user === undefined || reachable(skillModules, user.uid, user.gid, false))
        ? realpathSync(skillModules)
        : undefined;
    // Its mount point in the read-only copy.
    if (nodeModules !== undefined) {
      chmodSync(skillCopy, statSync(skillCopy).mode | 0o200);
      mkdirSync(join(skillCopy, 'node_modules'), { recursive: true });
    }
    let plan: ProcessPlan;
    let scan: WorkspaceScan | undefined;
    let workspacePath: string | undefined;
    let skillPath: string | undefined;
    if (status.available) {
      workspacePath = workspaceReal;
      skillPath = realpathSync(request.skillDirectory);
      const hidden: { path: string; kind: 'file' | 'directory' }[] = [];
      if (request.workspace !== undefined && workspacePath !== undefined) {
        scan = scanWorkspace(workspacePath, {
          expose: normaliseExposed(request.workspace.expose ?? [], workspacePath),
          snapshot: writable,
        });
        if (!writable && request.workspace.outputs !== undefined) {
          outputFolder = makeOutputFolder(
            resolve(request.workspace.outputs),
            newRunId(new Date()),
            workspacePath,
            VIEW_PATH,
            user,
          );
        }
        const shownAt = outputFolder === undefined ? workspacePath : VIEW_PATH;
        for (const secret of scan.secrets) {
          const full = join(workspacePath, secret.path);
          // The skill's own files are the staged copy's, not the workspace's.
          if (isUnder(full, skillPath)) continue;
          hidden.push({ path: `${shownAt}/${secret.path}`, kind: secret.kind });
        }
      }
      if (chosen.mappedRoot) hidden.push(...rootOnlySystemEntries());
      const placeholders = hidden.length > 0 ? makePlaceholders(root) : undefined;
      const program = seccompProgram();
      if (program !== undefined) {
        const path = join(root, 'seccomp.bpf');
        writeFileSync(path, program, { mode: 0o600 });
        seccomp = openSync(path, 'r');
      }
      plan = {
        command: status.program as string,
        argv: bubblewrapArguments({
          request,
          interpreter: usable?.interpreter ?? interpreterPath(request.interpreter) ?? interpreter,
          ...(usable === undefined
            ? {}
            : { toolchain: { binds: usable.binds, asNamed: usable.origin === 'venv' } }),
          ...(nodeModules === undefined ? {} : { nodeModules }),
          skillCopy,
          environment,
          prlimit,
          // The descriptors after stdin, stdout and stderr: the seccomp program, then the gate.
          seccompFd: seccomp === undefined ? undefined : 3,
          blockFd: seccomp === undefined ? 3 : 4,
          workspace:
            workspacePath === undefined
              ? undefined
              : {
                  path: workspacePath,
                  protection: protectedWorkspace?.arguments ?? [],
                  ...(outputFolder === undefined ? {} : { outputFolder: outputFolder.path }),
                },
          skillPath,
          hidden,
          ...(placeholders === undefined ? {} : { placeholders }),
        }),
        environment,
        cwd: undefined,
        user,
        sandbox: 'bubblewrap',
        extraFds: seccomp === undefined ? [] : [seccomp],
        writes: {
          // A mount the workspace covers cannot be written to (nor found).
          mounts: WRITABLE_MOUNTS.filter(
            (mount) => workspacePath === undefined || !isUnder(mount, workspacePath),
          ),
          countDiskWrites: writable || outputFolder !== undefined,
          gated: true,
        },
      };
    } else {
      // Unsandboxed, the script's files are the host's: what it dirties on disk is counted.
      const work = join(root, 'work');
      mkdirSync(work, { mode: 0o700 });
      environment.HOME = work;
      environment.TMPDIR = work;
      environment.SKILL_DIR = skillCopy;
      const [command, ...argv] = withLimits(
        [interpreter, join(skillCopy, request.scriptPath), ...request.args],
        request,
        prlimit,
      );
      plan = {
        command: command as string,
        argv,
        environment,
        cwd: request.workspace?.path ?? work,
        user,
        sandbox: 'none',
        extraFds: [],
        writes: { mounts: [], countDiskWrites: canWatchWrites(), gated: false },
      };
    }
    // The plan, read back, is the explanation: what would run is what is described.
    if (explainOnly) return describePlan(plan, request);
    const result = await execute(plan, request);
    let written: WrittenFiles | undefined;
    if (outputFolder !== undefined) {
      const folder = outputFolder.path;
      const kept = collectOutputs(outputFolder);
      outputFolder = undefined;
      written = {
        count: kept.count,
        files: kept.files,
        ...(kept.count > 0 ? { folder } : {}),
        ...(kept.removed.length > 0 ? { removed: kept.removed } : {}),
      };
    } else if (writable && scan !== undefined && workspacePath !== undefined) {
      const after = scanWorkspace(workspacePath, { expose: [], snapshot: true });
      written = changedFiles(workspacePath, scan.files, after.files);
    }
    const errors = `${result.stderr.head}\n${result.stderr.tail}`;
    const hints =
      result.exitCode === 0 && result.signal === null
        ? []
        : pathHints(
            errors,
            {
              workspace: workspacePath,
              writable,
              hidden: (scan?.secrets ?? []).map((secret) => secret.path),
              visible: [
                ...(skillPath === undefined ? [] : [skillPath]),
                '/skill',
                ...SYSTEM_FOLDERS.map((name) => `/${name}`),
              ],
              keepsOutputs: written !== undefined && !writable,
              network: request.network === true,
            },
            (path) => lstatOrUndefined(path) !== undefined,
          );
    return {
      ...result,
      ...(notStaged.count === 0 ? {} : { notStaged }),
      ...(written === undefined ? {} : { written }),
      ...(hints.length === 0 ? {} : { hints }),
    };
  } finally {
    if (outputFolder !== undefined) {
      try {
        collectOutputs(outputFolder);
      } catch {
        // what could not be tidied stays in the run folder
      }
    }
    if (seccomp !== undefined) closeSync(seccomp);
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    protectedWorkspace?.cleanup();
  }
}
