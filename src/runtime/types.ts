import type { AuditTrigger } from '../audit/trail.js';
import type {
  DirectoryWatcher,
  SandboxExplanation,
  ScriptRunResult,
  WatchHandle,
} from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Activation, ActivationTrigger, SkillFile } from '../disclosure/activation.js';
import type { CatalogOptions, CatalogResult } from '../disclosure/catalog.js';
import type { ResourceOptions, SkillResource } from '../disclosure/resources.js';
import type { RouteOptions, RouteResult } from '../disclosure/router.js';
import type { SkillhostError } from '../errors.js';
import type { ActiveSkillGrants, PolicyDecision, ToolRequest } from '../policy/engine.js';
import type { RegistryChanges, RegistryEntry } from '../registry/registry.js';
import type { SkillSource } from '../registry/sources.js';
import type { AgentBase, LoadAgentOptions, LoadedAgent } from './agents.js';
import type { ToolCallOptions, ToolCallResult, ToolDefinition } from './tools.js';

/** A user's answer to a confirmation: run once, refuse, or approve this exact content for good. */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** Running a script the policy wants confirmed. */
export interface ScriptApprovalQuestion {
  readonly kind: 'script';
  /** The skill's address (`name@source`). */
  readonly skill: string;
  readonly source: string;
  readonly trusted: boolean;
  readonly script: string;
  /** SHA-256 of the script. */
  readonly contentHash: string;
  readonly interpreter: string;
  readonly args: readonly string[];
  readonly reason: string;
  /** The script's text (the exact bytes that would run), for a host that shows it on request. */
  readonly text?: string;
  /** True when the run would have the network (`allowNetwork`): "always" then covers that too. */
  readonly network?: boolean;
}

/**
 * Activating an untrusted skill that the model (or the router) chose, not the user: its body
 * would enter the model's context. "always" is bound to the source, the skill and this content.
 */
export interface ActivationApprovalQuestion {
  readonly kind: 'activation';
  /** The skill's address (`name@source`). */
  readonly skill: string;
  readonly source: string;
  readonly trusted: boolean;
  /** SHA-256 of the skill's SKILL.md. */
  readonly contentHash: string;
  readonly triggeredBy: 'model' | 'router';
  /** The skill's description, as the catalog shows it (one line, no hidden characters). */
  readonly description: string;
  readonly reason: string;
}

/**
 * A call of a host tool that the policy wants confirmed: a write, an edit or a shell command in
 * the workspace. "always" counts as yes for this call only: nothing about host tools is stored
 * for good (an agent run's broker can grant them for its session).
 */
export interface ToolApprovalQuestion {
  readonly kind: 'tool';
  /** The tool as the model calls it, e.g. `workspace_bash`. */
  readonly tool: string;
  /** Its name in the policy's vocabulary: write, edit, bash, ... */
  readonly canonical: string;
  /** The workspace's real path. */
  readonly workspace: string;
  /** The call's exact input, as checked against the tool's schema (paths made relative). */
  readonly input: Readonly<Record<string, unknown>>;
  /** One line: what would happen. */
  readonly summary: string;
  readonly reason: string;
}

/** What `confirm` is asked: a script run, an untrusted skill's activation or a host tool's call (see `kind`). */
export type ApprovalQuestion =
  | ScriptApprovalQuestion
  | ActivationApprovalQuestion
  | ToolApprovalQuestion;

/** Approvals given with "always", bound to source, skill, content hash and script or activation. */
export interface ApprovalStore {
  has(key: string): boolean;
  add(key: string, note: Readonly<Record<string, string>>): void;
}

export interface ScriptRun {
  readonly skill: string;
  readonly script: string;
  readonly contentHash: string;
  readonly decision: PolicyDecision;
  /** How the run was approved: by policy, once by the user or a flag, or by a stored approval. */
  readonly approvedBy: 'policy' | 'once' | 'always' | 'shadow';
  readonly result: ScriptRunResult;
}

/** A skill's files (names and sizes, never contents), within the listing's caps. */
export interface SkillFileListing {
  /** The entry whose files these are. */
  readonly skill: RegistryEntry;
  readonly files: readonly SkillFile[];
  /** Files left out by the caps. */
  readonly unlisted: number;
}

/** A refusal decided outside the runtime (an adapter's own check), recorded as the runtime records its own. */
export interface Refusal {
  readonly event: 'skill-activate' | 'resource-read' | 'resource-list';
  /** The skill the request named, if it named one. */
  readonly skill?: string;
  /** The file or URI the request named. */
  readonly path?: string;
  readonly triggeredBy?: AuditTrigger;
  readonly error: SkillhostError;
}

/** A step of an agent run, for the audit trail. */
export interface AgentAuditEvent {
  readonly event:
    | 'agent-start'
    | 'agent-end'
    | 'model-request'
    | 'model-switch'
    | 'context-compact';
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * A step of `skillhost setup` for a skill, for the audit trail: `approve`, written before
 * anything runs (the environment, the exact commands, who approved them), then `end` (each
 * command's exit code and duration, or the error that stopped the setup).
 */
export interface SetupAuditEvent {
  readonly phase: 'approve' | 'end';
  /** SHA-256 of the skill's whole content: the environment's key. */
  readonly contentHash: string;
  readonly commands: readonly {
    readonly argv: readonly string[];
    readonly cwd: string;
    readonly exitCode?: number | null;
    readonly durationMs?: number;
  }[];
  readonly details: Readonly<Record<string, unknown>>;
  readonly error?: SkillhostError;
}

/**
 * A further session of a runtime (`openSession`). Its grants (the pre-approvals of the skills
 * it activated) last for the turn by default; a session with no turns (an MCP client) ends them
 * by these rules instead.
 */
export interface SessionOptions {
  /** Its audit session id. */
  readonly id: string;
  /** Activating a skill ends the grants of every other skill the session activated. */
  readonly grantsEndOnOtherActivation?: boolean;
  /**
   * Grants end when the session makes no call (tool call, activation, read, run) for this many
   * milliseconds, measured with the runtime's clock.
   */
  readonly grantsIdleMs?: number;
}

/**
 * The one object every adapter, the agent loop and the CLI talk to. It owns the registry, the
 * policy and the audit trail: every capability goes through the policy where it applies and
 * leaves one audit record, written before the capability takes effect, so an unwritable log
 * stops it. Make one with `createSkillRuntime`.
 */
export interface SkillRuntime {
  /** The sources searched, highest precedence first. */
  readonly sources: readonly SkillSource[];
  /** Findings about the sources themselves (limits reached, loops, unreadable folders). */
  readonly diagnostics: readonly Diagnostic[];
  /** Every copy of every skill, usable or not, sorted by name, then precedence. */
  skills(): readonly RegistryEntry[];
  /** The usable skills offered to the model (all of them, or those in the runtime's scope). */
  offered(): RegistryEntry[];
  /** A skill by name (the active copy) or by `name@source` (any copy); names are never paths. */
  resolve(nameOrAddress: string): RegistryEntry | undefined;
  /** The catalog of the offered skills (L1). */
  catalog(options?: CatalogOptions): CatalogResult;
  /** Ranks the offered skills for a task (the router form). */
  route(task: string, options?: RouteOptions): RouteResult;
  /**
   * Activates a skill (L2) and, for the current turn, puts its `allowed-tools` grants in force.
   * A second activation of the same content is deduplicated unless `resend` asks for the body
   * again (a prompt the user picked, an agent's preloaded skill). It never asks anyone: an
   * untrusted skill triggered by the model or the router needs an approval given "always" for
   * this content, else PERMISSION_REQUIRED; `requestActivation` asks.
   */
  activate(
    name: string,
    options: { readonly triggeredBy: ActivationTrigger; readonly resend?: boolean },
  ): Activation;
  /**
   * Activates a skill as `activate` does, asking `confirm` first when the skill is untrusted and
   * the model or the router chose it (yes once, no, or always for this exact content). Without
   * `confirm` such an activation is refused with PERMISSION_REQUIRED; a "no" with
   * PERMISSION_DENIED. The question and the answer are recorded. The `skillhost_activate` tool goes
   * through here.
   */
  requestActivation(
    name: string,
    options: { readonly triggeredBy: ActivationTrigger; readonly resend?: boolean },
  ): Promise<Activation>;
  /** Whether a skill (name or address) is active in this session. */
  isActive(nameOrAddress: string): boolean;
  /** Reads one file of a skill (L3), within bounds, through the policy, and records it. */
  readResource(name: string, path: string, options?: ResourceOptions): SkillResource;
  /** Lists one offered skill's files (names and sizes), through the policy, and records it. */
  listFiles(
    name: string,
    options?: { readonly maxFiles?: number; readonly maxDepth?: number },
  ): SkillFileListing;
  /** Runs a script of an active skill in the sandbox, as the policy and the user allow. */
  runScript(
    name: string,
    script: string,
    args?: readonly string[],
    options?: { readonly approveOnce?: boolean },
  ): Promise<ScriptRun>;
  /**
   * What a script would see if it ran now: the runner's own plan (mounts, environment, limits),
   * without running it or asking anyone. Needs a runner that explains (the bubblewrap one does).
   */
  explainScript(
    name: string,
    script: string,
    args?: readonly string[],
  ): Promise<SandboxExplanation>;
  /**
   * Approves a script ahead of any run, for its exact content (as an "always" answer would);
   * with `network`, its runs with the network too. Needs `deps.approvals`.
   */
  approveScript(
    name: string,
    script: string,
    options?: { readonly network?: boolean },
  ): { readonly skill: string; readonly script: string; readonly contentHash: string };
  /** Decides a call of one of the host's tools while skills are active, and records it. */
  authorize(request: ToolRequest): PolicyDecision;
  /** Records a refusal that an adapter decided before reaching the runtime. */
  recordRefusal(refusal: Refusal): void;
  /**
   * Records a step of an agent run in this session's trail: its start and end, each model
   * request (provider, model, tokens, finish reason; never content or keys) and each switch to
   * the fallback model (both models and the first error). Throws when the trail cannot be written.
   */
  recordAgentEvent(event: AgentAuditEvent): void;
  /**
   * Records a step of `skillhost setup` for a usable skill (name or address) in this session's
   * trail. Throws SKILL_NOT_FOUND or SKILL_UNAVAILABLE, or when the trail cannot be written.
   */
  recordSetup(name: string, event: SetupAuditEvent): void;
  /** The skills whose grants are in force (those activated in the current turn). */
  readonly grants: readonly ActiveSkillGrants[];
  /** Ends the current turn: every grant of the skills activated in it ends too. */
  endTurn(): void;
  /**
   * JSON-Schema definitions of the model-facing tools: the skill tools (none without a usable
   * skill), then the host tools over the workspace when the runtime was made with them.
   */
  tools(): ToolDefinition[];
  /**
   * Executes a model-facing tool call; failures are results with `isError` and a code. Calls
   * run one at a time, in the order they were made, whoever makes them. `options.callId` (the
   * model's id of the call) goes into the call's permission records.
   */
  callTool(name: string, input: unknown, options?: ToolCallOptions): Promise<ToolCallResult>;
  /** Loads an agent: its preloaded skills activated through this runtime, its prompt and catalog. */
  loadAgent(
    name: string,
    options: LoadAgentOptions & { readonly bases: readonly AgentBase[] },
  ): LoadedAgent;
  /** Scans the sources again (reusing what is unchanged) and tells the change listeners. */
  refresh(): RegistryChanges;
  /**
   * Watches the sources and refreshes after changes settle; listeners registered with
   * `onChange` hear of every change. Watching again returns the same handle.
   */
  watch(watcher: DirectoryWatcher, options?: { readonly debounceMs?: number }): WatchHandle;
  /** Calls `listener` after every registry change; returns the unsubscribe. */
  onChange(listener: (changes: RegistryChanges) => void): () => void;
  /**
   * Opens another session over the same registry, policy and audit log: its own activations,
   * grants, call queue and audit session (`id`). Each client of a server, each agent session,
   * gets one. Closing this runtime closes the sessions it opened.
   */
  openSession(options: SessionOptions): SkillRuntime;
  /** The audit session id of this session. */
  readonly sessionId: string;
  /** Counts registry changes: equal values mean the offered skills, tools and catalog are unchanged. */
  readonly revision: number;
  /** Stops watching and ends the audit session. */
  close(): Promise<void>;
}
