import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_SCRIPT_LIMITS } from '../core.js';
import type {
  MemoryLimitMethod,
  SandboxExplanation,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
  WrittenFiles,
} from '../deps.js';
import { SkillhostError } from '../errors.js';
import { bubblewrapArguments, VIEW_PATH, WRITABLE_MOUNTS, withLimits } from './sandbox-command.js';
import { describePlan } from './sandbox-explain.js';
import { probeMemoryLimit } from './sandbox-memory.js';
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
import { resolveToolchain, type Toolchain, venvBase } from './sandbox-toolchains.js';
import { checkWritable, reachable, reachableToolchain, runAs } from './sandbox-user.js';
import {
  changedFiles,
  collectOutputs,
  environmentHints,
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
import {
  environmentForRun,
  type RunEnvironment,
  unreachableEnvironment,
} from './skill-environment.js';

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
  let memory: MemoryLimitMethod | undefined;
  const sandbox = () => {
    status ??= probeBubblewrap(options.bubblewrap);
    return status;
  };
  return {
    sandbox,
    run: (request) => runScript(request, options, sandbox()) as Promise<ScriptRunResult>,
    explain: (request) => {
      memory ??= probeMemoryLimit();
      return runScript(request, options, sandbox(), memory) as Promise<SandboxExplanation>;
    },
    runCommand: (request) =>
      runShellCommand(
        request,
        (script) => runScript(script, options, sandbox()) as Promise<ScriptRunResult>,
        options.tempDir,
      ),
  };
}

/** The user's toolchain for a run, unless the runner was told to use the system's only. */
function findToolchain(
  request: ScriptRunRequest,
  options: SandboxOptions,
  workspace: string | undefined,
  skillVenv: string | undefined,
): Toolchain | undefined {
  if (options.toolchains === false && skillVenv === undefined) return undefined;
  const env = options.toolchains === false ? {} : (options.toolchains?.env ?? process.env);
  return resolveToolchain(request.interpreter, {
    searchPath: env.PATH ?? SYSTEM_PATH,
    env,
    homeDir: options.homeDir ?? env.HOME,
    workspace,
    ...(skillVenv === undefined ? {} : { skillVenv }),
  });
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
  /** Given when the run is only explained: how memory is limited here. */
  explainMemory?: MemoryLimitMethod,
): Promise<ScriptRunResult | SandboxExplanation> {
  const explainOnly = explainMemory !== undefined;
  const request = withWriteBudget(given);
  if (!status.available && request.allowUnsandboxed !== true) {
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      `Cannot run scripts in a sandbox: ${status.reason}`,
    );
  }
  const workspaceReal =
    request.workspace === undefined ? undefined : realpathSync(request.workspace.path);
  // The environment `skillhost setup` made for the skill's exact content, if any.
  let dependencies: RunEnvironment = status.available
    ? environmentForRun(request.environments, request.skillDirectory, venvBase)
    : environmentForRun(undefined, request.skillDirectory, venvBase);
  let toolchain = status.available
    ? findToolchain(request, options, workspaceReal, dependencies.venv)
    : undefined;
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
        ? runAs(request.workspace, dependencies.needs)
        : { user: undefined, mappedRoot: false, reachesEnvironment: true };
    const user = chosen.user;
    if (!chosen.reachesEnvironment) {
      // The workspace's owner cannot reach the environment: the run goes without it.
      dependencies = unreachableEnvironment(dependencies);
      toolchain = findToolchain(request, options, workspaceReal, undefined);
    }
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
    const moduleBin =
      dependencies.modules === undefined ? [] : ['/skill/scripts/node_modules/.bin'];
    const environment: Record<string, string> = {
      PATH: [...moduleBin, ...(usable?.pathPrefix ?? []), SYSTEM_PATH].join(':'),
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
    // Their mount points in the read-only copy.
    const mountPoint = (folder: string) => {
      const parent = dirname(join(skillCopy, folder));
      chmodSync(parent, statSync(parent).mode | 0o200);
      mkdirSync(join(skillCopy, folder), { recursive: true });
    };
    if (nodeModules !== undefined) mountPoint('node_modules');
    if (dependencies.modules !== undefined) mountPoint('scripts/node_modules');
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
          // Under an entry mounted from the view, the secret is reached there too: a mount does
          // not show what is later mounted at its source.
          if (outputFolder?.mounts.has(secret.path.split('/')[0] as string) === true)
            hidden.push({ path: full, kind: secret.kind });
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
          ...(dependencies.modules === undefined ? {} : { skillModules: dependencies.modules }),
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
                  ...(outputFolder === undefined
                    ? {}
                    : {
                        outputFolder: outputFolder.path,
                        mounted: [...outputFolder.mounts.keys()],
                      }),
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
    if (explainOnly)
      return describePlan(plan, request, {
        memory: explainMemory,
        dependencies: dependencies.status,
      });
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
    const skill = { name: basename(request.skillDirectory), environment: dependencies.status };
    const hints = [
      ...environmentHints(skill),
      ...(result.exitCode === 0 && result.signal === null
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
              skill,
            },
            (path) => lstatOrUndefined(path) !== undefined,
          )),
    ];
    return {
      ...result,
      ...(notStaged.count === 0 ? {} : { notStaged }),
      ...(written === undefined ? {} : { written }),
      ...(hints.length === 0 ? {} : { hints }),
      ...(dependencies.status === undefined ? {} : { dependencies: dependencies.status }),
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
