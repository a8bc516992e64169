import {
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ApprovalStore,
  CANONICAL_TOOLS,
  createSkillRuntime,
  type JsonlSinkOptions,
  type PolicyConfig,
  rotateAuditLog,
  type ScriptWorkspace,
  type SkillRuntime,
  type SkillSource,
} from '../node/index.js';
import { type OptionSpecs, type ParsedArgs, UsageError } from './args.js';
import type { CliDeps, CliIO } from './io.js';
import { printable } from './printable.js';
import {
  auditLogPath,
  configFile,
  SOURCE_OPTIONS,
  type SourceSettings,
  skillhostHome,
  sourceSettings,
} from './registry-options.js';
import { VERSION } from './version.js';

/** Options of the commands that use capabilities (and so the policy and the audit log). */
export const RUNTIME_OPTIONS: OptionSpecs = {
  ...SOURCE_OPTIONS,
  'audit-log': { type: 'string' },
  tools: { type: 'string' },
  deny: { type: 'string', multiple: true },
  narrow: { type: 'boolean' },
  shadow: { type: 'boolean' },
};

/** The host's tools for the CLI's policy: --tools, else every canonical tool. */
export function hostTools(args: ParsedArgs): string[] {
  const given = args.options.tools;
  if (given === undefined) return [...CANONICAL_TOOLS];
  const tools = String(given)
    .split(/[\s,]+/)
    .filter((tool) => tool !== '');
  if (tools.length === 0) throw new UsageError('--tools needs at least one tool name');
  return tools;
}

export function policyConfig(args: ParsedArgs): PolicyConfig {
  return {
    tools: hostTools(args),
    deny: (args.options.deny as readonly string[] | undefined) ?? [],
    narrow: args.options.narrow === true,
    shadow: args.options.shadow === true,
  };
}

/** How the CLI's audit log rotates: the user config's auditLog settings, or the defaults. */
export function auditSinkOptions(deps: CliDeps): JsonlSinkOptions {
  const settings = deps.readConfig(configFile(deps)).auditLog ?? {};
  return {
    rotate: rotateAuditLog,
    now: deps.now,
    ...(settings.maxBytes === undefined ? {} : { maxBytes: settings.maxBytes }),
    ...(settings.keep === undefined ? {} : { keep: settings.keep }),
  };
}

/** Lasting approvals ("always"), kept in the user config. */
export function approvalStore(deps: CliDeps): ApprovalStore {
  const path = configFile(deps);
  return {
    has: (key) => (deps.readConfig(path).approvals ?? []).some((approval) => approval.key === key),
    add: (key, note) => {
      const config = deps.readConfig(path);
      const approvals = (config.approvals ?? []).filter((approval) => approval.key !== key);
      approvals.push({
        key,
        ...(note.kind === 'activation' || note.kind === 'network' ? { kind: note.kind } : {}),
        skill: note.skill ?? '',
        script: note.script ?? '',
        contentHash: note.contentHash ?? '',
      });
      deps.writeConfig(path, { ...config, approvals });
    },
  };
}

/** The first line of a question at the terminal: what would happen, to which exact content. */
function describeQuestion(question: ApprovalQuestion): string {
  if (question.kind === 'tool')
    return `${printable(question.summary)}, in the workspace ${printable(question.workspace)}?`;
  const hash = `sha256 ${question.contentHash.slice(0, 16)}…`;
  if (question.kind === 'activation') {
    return `Activate ${printable(question.skill)}, UNTRUSTED (source ${printable(question.source)}), ${hash}, as the ${question.triggeredBy} asks? Its instructions would enter the model's context.\n  Description: ${printable(question.description.slice(0, 300))}`;
  }
  const args =
    question.args.length === 0
      ? ''
      : ` ${question.args.map((argument) => JSON.stringify(argument)).join(' ')}`;
  return `Run ${printable(question.script)}${printable(args)} (${question.interpreter}) of ${printable(question.skill)}, ${question.trusted ? 'trusted' : 'UNTRUSTED'}, ${hash}, in the sandbox${question.network === true ? ', WITH THE NETWORK' : ''}?`;
}

/** Asks at the terminal: yes, no, or always for this exact content. */
function terminalConfirm(
  io: CliIO,
): ((question: ApprovalQuestion) => Promise<ApprovalAnswer>) | undefined {
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true) return undefined;
  return async (question) => {
    const text = question.kind === 'script' ? question.text : undefined;
    const choices = `[y]es once / [n]o / [a]lways for this exact content${text === undefined ? '' : ' / [v]iew the script'}: `;
    io.stderr.write(`${describeQuestion(question)}\n  ${printable(question.reason)}\n${choices}`);
    let answer = (await input.readLine())?.trim().toLowerCase();
    while (text !== undefined && (answer === 'v' || answer === 'view')) {
      const lines = text.split('\n');
      const shown = lines
        .slice(0, 400)
        .map((line, index) => `${String(index + 1).padStart(4)}  ${printable(line)}`);
      if (lines.length > 400) shown.push(`   … ${lines.length - 400} more lines`);
      io.stderr.write(`${shown.join('\n')}\n${choices}`);
      answer = (await input.readLine())?.trim().toLowerCase();
    }
    if (answer === 'y' || answer === 'yes') return 'yes';
    if (answer === 'a' || answer === 'always') return 'always';
    return 'no';
  };
}

/** Where `skillhost setup` keeps the environments of skills' dependencies: $SKILLHOST_HOME/envs. */
export function environmentsFolder(deps: CliDeps): string {
  return deps.resolvePath(skillhostHome(deps), 'envs');
}

/** Where the run folders of a read-only workspace's outputs are made, under the project. */
export function runsFolder(projectDir: string, deps: CliDeps): string {
  return deps.resolvePath(projectDir, '.skillhost/runs');
}

/**
 * The workspace scripts get unless told otherwise: the project folder, read-only, what they
 * write kept in its `.skillhost/runs`. None when the project folder is the root or holds the
 * home folder (a script would see every file of the user).
 */
export function defaultWorkspace(projectDir: string, deps: CliDeps): ScriptWorkspace | undefined {
  const project = deps.fs.realPath(projectDir) ?? projectDir;
  const home = deps.fs.realPath(deps.homeDir) ?? deps.homeDir;
  if (project === '/' || home === project || home.startsWith(`${project}/`)) return undefined;
  return { path: project, writable: false, outputs: runsFolder(project, deps) };
}

export interface OpenedRuntime {
  readonly runtime: SkillRuntime;
  /** The default sources left out on request (`sources.leaveOut`). */
  readonly leftOut: readonly SkillSource[];
  /** Ends the audit session and closes the log; never throws (the log's failure was reported). */
  close(): Promise<void>;
}

/** A runtime's settings, chosen from the command line and the user config, not opened yet. */
export interface PreparedRuntime {
  /** The settings, with the sources left out on request removed. */
  readonly settings: SourceSettings;
  /** The default sources left out on request (`sources.leaveOut`). */
  readonly leftOut: readonly SkillSource[];
  open(): OpenedRuntime;
}

/**
 * Opens a runtime for one command: the command line's sources, the CLI's policy, the audit log
 * (failing closed if it cannot be opened), the bubblewrap runner, lasting approvals from the user
 * config, and terminal confirmations when interactive.
 */
export function openRuntime(...parts: Parameters<typeof prepareRuntime>): OpenedRuntime {
  return prepareRuntime(...parts).open();
}

/** Chooses a runtime's settings as `openRuntime` does; the runtime opens when `open` is called. */
export function prepareRuntime(
  args: ParsedArgs,
  deps: CliDeps,
  io: CliIO,
  scripts: {
    readonly allowUnsandboxed?: boolean;
    readonly timeoutMs?: number;
    readonly maxWriteBytes?: number;
    readonly maxMemoryBytes?: number;
    /** Give runs the network, once the user confirms it per skill and script. */
    readonly allowNetwork?: boolean;
    /** The workspace; by default the project folder (see `defaultWorkspace`), null for none. */
    readonly workspace?: ScriptWorkspace | null;
  } = {},
  session: {
    /** Who answers confirmations instead of the terminal prompt (the agent run's broker). */
    readonly confirm?: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
    readonly sessionId?: string;
    /** The host's tools instead of --tools' (an agent's, narrowed from them). */
    readonly tools?: readonly string[];
    /** Offer the host tools over the workspace (agent runs and chats). */
    readonly workspaceTools?: boolean;
  } = {},
  sources: {
    /** Roots of project and user sources to leave out (folders a client serves itself). */
    readonly leaveOut?: readonly string[];
    /**
     * A long-running server: keep discovery's scans (a refresh after a change reads only what
     * changed) and open from the index unchecked (the watch's first refresh checks it).
     */
    readonly server?: boolean;
  } = {},
): PreparedRuntime {
  const found = sourceSettings(args, deps);
  const leaveOut = new Set(sources.leaveOut ?? []);
  const leftOut = found.sources.filter(
    (source) => (source.kind === 'project' || source.kind === 'user') && leaveOut.has(source.root),
  );
  const settings =
    leftOut.length === 0
      ? found
      : { ...found, sources: found.sources.filter((source) => !leftOut.includes(source)) };
  return {
    settings,
    leftOut,
    open: () => openPrepared(settings, leftOut, args, deps, io, scripts, session, sources),
  };
}

function openPrepared(
  settings: SourceSettings,
  leftOut: readonly SkillSource[],
  ...[args, deps, io, scripts = {}, session = {}, sources = {}]: Parameters<typeof prepareRuntime>
): OpenedRuntime {
  const workspace =
    scripts.workspace === undefined
      ? defaultWorkspace(settings.workspaceDir, deps)
      : (scripts.workspace ?? undefined);
  const sink = deps.auditSink(auditLogPath(args, deps), auditSinkOptions(deps));
  const confirm = session.confirm ?? terminalConfirm(io);
  const runtime = createSkillRuntime({
    sources: settings.sources,
    version: VERSION,
    ...(sources.server === true ? { indexFirst: true } : { keepScans: false }),
    discovery: settings.discovery,
    disabled: settings.disabled,
    externalSkills: settings.externalSkills,
    policy: {
      ...policyConfig(args),
      ...(session.tools === undefined ? {} : { tools: [...session.tools] }),
    },
    audit: { sink, sessionId: session.sessionId ?? deps.newSessionId() },
    ...(session.workspaceTools === true &&
    workspace !== undefined &&
    deps.workspaceFiles !== undefined
      ? { workspaceTools: true }
      : {}),
    deps: {
      fs: deps.fs,
      hash: deps.hash,
      now: deps.now,
      runner: deps.runner,
      approvals: approvalStore(deps),
      ...(deps.workspaceFiles === undefined ? {} : { workspaceFiles: deps.workspaceFiles }),
      ...(settings.cache === undefined ? {} : { cache: settings.cache }),
      ...(confirm === undefined ? {} : { confirm }),
    },
    scripts: {
      limits: {
        ...(scripts.timeoutMs === undefined ? {} : { timeoutMs: scripts.timeoutMs }),
        ...(scripts.maxWriteBytes === undefined ? {} : { maxWriteBytes: scripts.maxWriteBytes }),
        ...(scripts.maxMemoryBytes === undefined ? {} : { maxMemoryBytes: scripts.maxMemoryBytes }),
      },
      ...(scripts.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
      ...(scripts.allowNetwork === true ? { allowNetwork: true } : {}),
      ...(workspace === undefined ? {} : { workspace }),
      environments: environmentsFolder(deps),
    },
  });
  return {
    runtime,
    leftOut,
    close: async () => {
      try {
        await runtime.close();
      } catch {
        // The log could not take the session's end: the capability that needed it already failed.
      } finally {
        sink.close();
      }
    },
  };
}
