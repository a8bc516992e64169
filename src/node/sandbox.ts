import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  copyFileSync,
  type Dirent,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type {
  CapturedOutput,
  ScriptInterpreter,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
} from '../deps.js';
import { SkillhostError } from '../errors.js';

/**
 * node:child_process, loaded on the first script run or sandbox probe: every other command
 * (validate, list, ...) loads this module through the node entry and never spawns anything.
 */
const require = createRequire(import.meta.url);
const childProcess = (): typeof import('node:child_process') => require('node:child_process');

/** Where interpreters and helpers are looked up: system folders only, never a user's shims. */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const NOBODY = 65534;
const MAX_STAGED_ENTRIES = 2000;
const MAX_STAGED_BYTES = 64 * 1024 * 1024;
/**
 * The only host folders a sandboxed script sees, read-only: the system's programs, libraries and
 * configuration. Homes, /tmp, /var, /srv, /mnt, /root and everything else are simply not there.
 */
const SYSTEM_FOLDERS = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc'];

function lstatOrUndefined(path: string): import('node:fs').Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function findExecutable(name: string): string | undefined {
  for (const folder of SYSTEM_PATH.split(':')) {
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** The interpreter binary for a script, from the system folders (node may fall back to this process's). */
function interpreterPath(interpreter: ScriptInterpreter): string | undefined {
  const found = findExecutable(interpreter);
  if (found !== undefined) return found;
  return interpreter === 'node' ? process.execPath : undefined;
}

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
}

interface SandboxStatus {
  readonly available: boolean;
  readonly reason: string;
  readonly program?: string;
}

class OutputCapture {
  readonly #limit: number;
  #head = Buffer.alloc(0);
  #tail: Buffer[] = [];
  #tailBytes = 0;
  total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.#head.length < this.#limit) {
      const room = this.#limit - this.#head.length;
      this.#head = Buffer.concat([this.#head, rest.subarray(0, room)]);
      rest = rest.subarray(room);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#limit) {
      this.#tailBytes -= (this.#tail.shift() as Buffer).length;
    }
  }

  result(): CapturedOutput {
    const joined = Buffer.concat(this.#tail);
    const tail = joined.subarray(Math.max(0, joined.length - this.#limit));
    return {
      head: this.#head.toString('utf8'),
      tail: tail.toString('utf8'),
      totalBytes: this.total,
      omittedBytes: this.total - this.#head.length - tail.length,
    };
  }
}

/** Copies the skill's folders and regular files (no links, no devices) within bounds. */
function stageSkill(source: string, target: string): void {
  let entries = 0;
  let bytes = 0;
  const copy = (from: string, to: string, depth: number): void => {
    mkdirSync(to, { mode: 0o755 });
    if (depth > 16) return;
    let listing: Dirent[];
    try {
      listing = readdirSync(from, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of listing) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      entries += 1;
      if (entries > MAX_STAGED_ENTRIES) {
        throw new SkillhostError(
          'SCRIPT_TOO_LARGE',
          `The skill has more than ${MAX_STAGED_ENTRIES} files to stage`,
        );
      }
      const fromPath = join(from, entry.name);
      const toPath = join(to, entry.name);
      if (entry.isDirectory()) copy(fromPath, toPath, depth + 1);
      else if (entry.isFile()) {
        bytes += statSync(fromPath).size;
        if (bytes > MAX_STAGED_BYTES) {
          throw new SkillhostError(
            'SCRIPT_TOO_LARGE',
            `The skill holds more than ${MAX_STAGED_BYTES} bytes to stage`,
          );
        }
        copyFileSync(fromPath, toPath);
        chmodSync(toPath, 0o644);
      }
    }
  };
  copy(source, target, 0);
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else chownSync(child, uid, gid);
  }
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
 * is an ordinary user, else `nobody`. Either way never root, so root-only files stay unreadable.
 * A workspace that user cannot reach is refused up front rather than failing inside the script.
 */
function runAs(workspace: ScriptRunRequest['workspace']): { uid: number; gid: number } {
  if (workspace === undefined) return { uid: NOBODY, gid: NOBODY };
  const status = statSync(workspace.path);
  const user =
    status.uid === 0 ? { uid: NOBODY, gid: NOBODY } : { uid: status.uid, gid: status.gid };
  if (!reachable(workspace.path, user.uid, user.gid, workspace.writable)) {
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      `Scripts run as uid ${user.uid} (never as root), which cannot ${workspace.writable ? 'write to' : 'read'} the workspace ${workspace.path}; make it accessible to that user, or run skillhost as an ordinary user`,
    );
  }
  return user;
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
    run: (request) => runScript(request, options, sandbox()),
  };
}

async function runScript(
  request: ScriptRunRequest,
  options: SandboxOptions,
  status: SandboxStatus,
): Promise<ScriptRunResult> {
  if (!status.available && request.allowUnsandboxed !== true) {
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      `Cannot run scripts in a sandbox: ${status.reason}`,
    );
  }
  const interpreter = interpreterPath(request.interpreter);
  if (interpreter === undefined) {
    throw new SkillhostError(
      'SCRIPT_INTERPRETER_UNKNOWN',
      `The interpreter ${request.interpreter} is not installed in ${SYSTEM_PATH}`,
    );
  }
  const root = mkdtempSync(join(options.tempDir ?? tmpdir(), 'skillhost-run-'));
  try {
    const skillCopy = join(root, 'skill');
    const work = join(root, 'work');
    stageSkill(request.skillDirectory, skillCopy);
    const scriptCopy = join(skillCopy, request.scriptPath);
    mkdirSync(dirname(scriptCopy), { recursive: true, mode: 0o755 });
    writeFileSync(scriptCopy, request.scriptBytes, { mode: 0o755 });
    mkdirSync(work, { mode: 0o755 });
    const asRoot = process.getuid?.() === 0;
    const drop =
      asRoot && options.dropRoot !== false && status.available
        ? runAs(request.workspace)
        : undefined;
    if (drop !== undefined) {
      chmodSync(root, 0o711);
      chownTree(work, drop.uid, drop.gid);
    }
    const prlimit = findExecutable('prlimit');
    const limited = (command: string[]): string[] =>
      prlimit === undefined
        ? [
            '/bin/sh',
            '-c',
            `ulimit -u ${request.limits.maxProcesses} -n ${request.limits.maxOpenFiles} -f ${Math.ceil(request.limits.maxFileBytes / 512)} -v ${Math.ceil(request.limits.maxMemoryBytes / 1024)}; exec "$@"`,
            'sh',
            ...command,
          ]
        : [prlimit, ...limitArguments(request), '--', ...command];
    const environment: Record<string, string> = {
      PATH: SYSTEM_PATH,
      HOME: '/home/sandbox',
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      SKILL_DIR: '/skill',
      ...request.env,
    };
    let command: string;
    let argv: string[];
    let cwd: string | undefined;
    if (status.available) {
      const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
      for (const name of SYSTEM_FOLDERS) {
        const host = `/${name}`;
        const entry = lstatOrUndefined(host);
        if (entry?.isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
        else if (entry?.isDirectory()) args.push('--ro-bind', host, host);
      }
      args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/home/sandbox');
      const realInterpreter = realpathSync(interpreter);
      if (!SYSTEM_FOLDERS.some((name) => isUnder(realInterpreter, `/${name}`))) {
        args.push('--ro-bind', realInterpreter, realInterpreter);
      }
      args.push('--ro-bind', skillCopy, '/skill', '--bind', work, '/work');
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
      for (const [name, value] of Object.entries(environment)) args.push('--setenv', name, value);
      args.push(
        '--',
        ...limited([realInterpreter, `/skill/${request.scriptPath}`, ...request.args]),
      );
      command = status.program as string;

      argv = args;
    } else {
      environment.HOME = work;
      environment.TMPDIR = work;
      environment.SKILL_DIR = skillCopy;
      const [first, ...rest] = limited([interpreter, scriptCopy, ...request.args]);
      command = first as string;
      argv = rest;
      cwd = request.workspace?.path ?? work;
    }
    return await execute(
      command,
      argv,
      environment,
      cwd,
      request,
      drop,
      status.available ? 'bubblewrap' : 'none',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function execute(
  command: string,
  argv: string[],
  environment: Record<string, string>,
  cwd: string | undefined,
  request: ScriptRunRequest,
  drop: { uid: number; gid: number } | undefined,
  sandbox: 'bubblewrap' | 'none',
): Promise<ScriptRunResult> {
  const started = performance.now();
  const stdout = new OutputCapture(request.limits.maxCapturedBytes);
  const stderr = new OutputCapture(request.limits.maxCapturedBytes);
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(command, argv, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: sandbox === 'bubblewrap' ? { PATH: SYSTEM_PATH } : environment,
      ...(cwd === undefined ? {} : { cwd }),
      ...(drop === undefined ? {} : { uid: drop.uid, gid: drop.gid }),
    });
    let timedOut = false;
    let outputLimited = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.limits.timeoutMs);
    const onData = (capture: OutputCapture) => (chunk: Buffer) => {
      capture.push(chunk);
      if (!outputLimited && stdout.total + stderr.total > request.limits.maxOutputBytes) {
        outputLimited = true;
        killGroup();
      }
    };
    child.stdout.on('data', onData(stdout));
    child.stderr.on('data', onData(stderr));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new SkillhostError('SANDBOX_UNAVAILABLE', `Cannot start the script: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      // Whatever the script started and left behind goes with its process group.
      killGroup();
      resolve({
        exitCode,
        signal,
        timedOut,
        outputLimited,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.result(),
        stderr: stderr.result(),
        sandbox,
      });
    });
  });
}
