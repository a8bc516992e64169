import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillhostError } from '../errors.js';
import { childProcess, findExecutable, SYSTEM_PATH } from './sandbox-system.js';
import { resolveToolchain } from './sandbox-toolchains.js';
import { type DeclaredDependencies, declaredDependencies } from './skill-dependencies.js';
import {
  copySkillFiles,
  ENVIRONMENT_MARKER,
  environmentReady,
  lastSetUp,
  pointerFile,
  REQUIREMENTS_FILE,
  skillContentHash,
  skillDependencyKinds,
} from './skill-environment.js';

/**
 * `skillhost setup`: the environment of a skill's declared dependencies, built outside the
 * sandbox by the user's own installers (Python: a venv and pip; Node: npm ci, or npm install
 * without a lockfile) in a copy of the skill, under `ENVIRONMENTS/<content hash>/`. A plan comes
 * first (what is declared, the exact commands), so that it can be shown and approved; the build
 * follows it. Package code never runs unless allowed: pip installs wheels only
 * (`--only-binary :all:`) and npm runs no scripts (`--ignore-scripts`).
 */

export interface SkillSetupOptions {
  /** The folder of environments (`$SKILLHOST_HOME/envs`). */
  readonly environments: string;
  /** The user's environment: PATH finds python3 and npm; the installers run with the rest. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir?: string;
  /** pip: a folder of wheels to install from (with no index unless `indexUrl` is given too). */
  readonly findLinks?: string;
  /** pip: the package index (a mirror, or a local one). */
  readonly indexUrl?: string;
  /** npm: the registry (a mirror, or a local one). */
  readonly registry?: string;
  /** No network: pip uses no index (only `findLinks`), npm only its cache (`--offline`). */
  readonly offline?: boolean;
  /** Let packages run their own build and install scripts (pip source builds, npm scripts). */
  readonly allowScripts?: boolean;
}

/** One command of a setup: exactly what runs, where. */
export interface SetupCommand {
  readonly argv: readonly string[];
  readonly cwd: string;
}

export interface SkillSetupPlan {
  readonly skillDirectory: string;
  /** SHA-256 of the skill's whole content: the environment's key. */
  readonly contentHash: string;
  /** Where the environment is (or will be). */
  readonly folder: string;
  /**
   * `ready` (already made for this content), `missing` (never made for this skill), `stale`
   * (made for an earlier content of it), `incomplete` (an earlier setup stopped half-way).
   */
  readonly state: 'ready' | 'missing' | 'stale' | 'incomplete';
  readonly kinds: readonly ('python' | 'node')[];
  readonly declared: DeclaredDependencies;
  /** The skill is copied here (regular files only, no installer configuration), then: */
  readonly copy: string;
  readonly commands: readonly SetupCommand[];
  /** The variables set (a string) or removed (null) in the user's environment for the commands. */
  readonly environment: Readonly<Record<string, string | null>>;
  /** Whether package build and install scripts may run. */
  readonly scripts: 'not-run' | 'allowed';
}

export interface SkillSetupStep extends SetupCommand {
  readonly exitCode: number | null;
  readonly durationMs: number;
}

export interface SkillSetupResult {
  readonly folder: string;
  readonly contentHash: string;
  readonly steps: readonly SkillSetupStep[];
}

/** Changes to the user's environment for the installers: no prompts, no other environment's paths. */
const ENVIRONMENT_CHANGES: Readonly<Record<string, string | null>> = {
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  VIRTUAL_ENV: null,
  PYTHONPATH: null,
  PYTHONHOME: null,
};

/**
 * What `skillhost setup` would do for a skill: its content hash and environment folder, what it
 * declares (checked: SETUP_REFUSED for what would run package code, unless allowed), and the
 * exact commands. Undefined for a skill that declares no dependencies. Nothing is run or written.
 */
export function planSkillSetup(
  skillDirectory: string,
  options: SkillSetupOptions,
): SkillSetupPlan | undefined {
  const skill = realpathSync(skillDirectory);
  const kinds = skillDependencyKinds(skill);
  if (kinds.length === 0) return undefined;
  const allowScripts = options.allowScripts === true;
  const declared = declaredDependencies(skill, kinds, allowScripts);
  const contentHash = skillContentHash(skill);
  const folder = join(options.environments, contentHash);
  const copy = join(folder, 'skill');
  const scripts = join(copy, 'scripts');
  const searchPath = options.env.PATH ?? SYSTEM_PATH;
  const commands: SetupCommand[] = [];
  if (kinds.includes('python')) {
    const { VIRTUAL_ENV: _ignored, ...env } = options.env;
    const python = resolveToolchain('python3', {
      searchPath,
      env,
      homeDir: options.homeDir,
      workspace: undefined,
    })?.interpreter;
    if (python === undefined)
      throw new SkillhostError(
        'SETUP_TOOL_MISSING',
        `No python3 on PATH (${searchPath}) to make the environment of ${REQUIREMENTS_FILE}`,
      );
    const venv = join(folder, 'venv');
    const sources = [
      ...(options.findLinks === undefined ? [] : ['--find-links', options.findLinks]),
      ...(options.indexUrl === undefined ? [] : ['--index-url', options.indexUrl]),
      ...((options.findLinks !== undefined && options.indexUrl === undefined) ||
      options.offline === true
        ? ['--no-index']
        : []),
    ];
    commands.push({ argv: [python, '-m', 'venv', venv], cwd: scripts });
    commands.push({
      argv: [
        join(venv, 'bin', 'python'),
        '-m',
        'pip',
        'install',
        '--no-input',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        ...(allowScripts ? [] : ['--only-binary', ':all:']),
        ...sources,
        '-r',
        'requirements.txt',
      ],
      cwd: scripts,
    });
  }
  if (kinds.includes('node')) {
    const npm = findExecutable('npm', searchPath);
    if (npm === undefined)
      throw new SkillhostError(
        'SETUP_TOOL_MISSING',
        `No npm on PATH (${searchPath}) to install the packages of scripts/package.json`,
      );
    commands.push({
      argv: [
        npm,
        declared.node?.lockfile === undefined ? 'install' : 'ci',
        ...(allowScripts ? [] : ['--ignore-scripts']),
        '--no-audit',
        '--no-fund',
        ...(options.offline === true ? ['--offline'] : []),
        ...(options.registry === undefined ? [] : ['--registry', options.registry]),
      ],
      cwd: scripts,
    });
  }
  const previous = lastSetUp(options.environments, skill);
  const state = environmentReady(folder)
    ? 'ready'
    : statOrUndefined(folder) !== undefined
      ? 'incomplete'
      : previous !== undefined && previous !== contentHash
        ? 'stale'
        : 'missing';
  return {
    skillDirectory: skill,
    contentHash,
    folder,
    state,
    kinds,
    declared,
    copy,
    commands,
    environment: ENVIRONMENT_CHANGES,
    scripts: allowScripts ? 'allowed' : 'not-run',
  };
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The last bytes of a command's output, for an error message. */
class Tail {
  #text = '';
  push(chunk: string): void {
    this.#text = (this.#text + chunk).slice(-4000);
  }
  lines(count: number): string {
    return this.#text.trimEnd().split('\n').slice(-count).join('\n');
  }
}

function runCommand(
  command: SetupCommand,
  env: Record<string, string>,
  timeoutMs: number,
  onOutput: (text: string) => void,
): Promise<{ exitCode: number | null; durationMs: number; tail: string; timedOut: boolean }> {
  const started = performance.now();
  const tail = new Tail();
  return new Promise((done, fail) => {
    const [program, ...args] = command.argv as [string, ...string[]];
    const child = childProcess().spawn(program, args, {
      cwd: command.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      tail.push(text);
      onOutput(text);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(new SkillhostError('SETUP_FAILED', `${program} could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        // Whatever the command left running goes with it.
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // nothing left
      }
      done({
        exitCode: code,
        durationMs: performance.now() - started,
        tail: tail.lines(12),
        timedOut,
      });
    });
  });
}

/** What a failed command's output says the user can do. */
function failureAdvice(tail: string, plan: SkillSetupPlan): string {
  if (/ensurepip is not available|No module named (ensurepip|venv)/.test(tail))
    return ' (this python cannot make virtual environments: install its venv module, e.g. apt-get install python3-venv)';
  if (plan.scripts === 'not-run' && /No matching distribution|Could not find a version/.test(tail))
    return ' (pip installs wheels only: a package that ships only its source needs --allow-scripts, which lets its build code run on this machine; or give a folder of wheels with --find-links)';
  return '';
}

/** Removes the environment of a skill's earlier content, unless another skill folder uses it. */
function removeEarlier(environments: string, earlier: string, keep: string): void {
  if (earlier === keep || !/^[0-9a-f]{64}$/.test(earlier)) return;
  const pointers = join(environments, 'skills');
  for (const name of readdirSync(pointers)) {
    try {
      const text = readFileSync(join(pointers, name), 'utf8');
      if ((JSON.parse(text) as { contentHash?: unknown }).contentHash === earlier) return;
    } catch {
      // an unreadable pointer holds nothing
    }
  }
  rmSync(join(environments, earlier), { recursive: true, force: true });
}

/**
 * Builds the environment a plan describes: the folder made afresh (an incomplete one removed),
 * the skill copied, each command run in turn with the user's environment (as the plan changes
 * it) and its output passed to `onOutput`, the marker written last. A command that fails or
 * passes `timeoutMs` (default 10 minutes) stops the setup with SETUP_FAILED and the folder is
 * removed. The skill must still declare what the plan showed.
 */
export async function buildSkillSetup(
  plan: SkillSetupPlan,
  options: {
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly onOutput?: (text: string) => void;
    readonly timeoutMs?: number;
    readonly now?: () => Date;
  },
): Promise<SkillSetupResult> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env))
    if (value !== undefined) env[name] = value;
  for (const [name, value] of Object.entries(plan.environment)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  const environments = dirname(plan.folder);
  mkdirSync(join(environments, 'skills'), { recursive: true, mode: 0o755 });
  rmSync(plan.folder, { recursive: true, force: true });
  mkdirSync(plan.folder, { mode: 0o755 });
  const steps: SkillSetupStep[] = [];
  try {
    copySkillFiles(plan.skillDirectory, plan.copy);
    // What is installed is what was shown: the copy declares exactly what the plan read.
    for (const [path, hash] of Object.entries(plan.declared.files)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(plan.copy, path), 'utf8');
      } catch {
        text = undefined;
      }
      if (text === undefined || createHash('sha256').update(text).digest('hex') !== hash)
        throw new SkillhostError(
          'SETUP_FAILED',
          `${path} of the skill changed after it was shown; run skillhost setup again`,
        );
    }
    for (const command of plan.commands) {
      mkdirSync(command.cwd, { recursive: true });
      const ran = await runCommand(
        command,
        env,
        options.timeoutMs ?? 600_000,
        options.onOutput ?? (() => {}),
      );
      steps.push({ ...command, exitCode: ran.exitCode, durationMs: Math.round(ran.durationMs) });
      if (ran.exitCode !== 0) {
        const shown = command.argv.join(' ');
        throw new SkillhostError(
          'SETUP_FAILED',
          `${shown} ${ran.timedOut ? `ran past ${Math.round((options.timeoutMs ?? 600_000) / 1000)} s and was stopped` : `exited with ${ran.exitCode ?? 'a signal'}`}${failureAdvice(ran.tail, plan)}${ran.tail === '' ? '' : `:\n${ran.tail}`}`,
          { details: { command: command.argv, exitCode: ran.exitCode } },
        );
      }
    }
    const earlier = lastSetUp(environments, plan.skillDirectory);
    writeFileSync(
      join(plan.folder, ENVIRONMENT_MARKER),
      `${JSON.stringify(
        {
          version: 1,
          skillDirectory: plan.skillDirectory,
          contentHash: plan.contentHash,
          kinds: plan.kinds,
          scripts: plan.scripts,
          commands: plan.commands.map((command) => command.argv),
          created: (options.now ?? (() => new Date()))().toISOString(),
        },
        null,
        2,
      )}\n`,
      { mode: 0o644 },
    );
    const pointer = pointerFile(environments, plan.skillDirectory);
    mkdirSync(dirname(pointer), { recursive: true });
    writeFileSync(
      pointer,
      `${JSON.stringify({ skillDirectory: plan.skillDirectory, contentHash: plan.contentHash })}\n`,
      { mode: 0o644 },
    );
    if (earlier !== undefined) removeEarlier(environments, earlier, plan.contentHash);
    return { folder: plan.folder, contentHash: plan.contentHash, steps };
  } catch (error) {
    rmSync(plan.folder, { recursive: true, force: true });
    throw error;
  }
}
