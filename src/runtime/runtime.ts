import { type AuditEventInput, AuditTrail } from '../audit/trail.js';
import type { DirectoryWatcher, SandboxExplanation, WatchHandle } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import { type Activation, listSkillFiles, SkillSession } from '../disclosure/activation.js';
import { type CatalogOptions, type CatalogResult, renderCatalog } from '../disclosure/catalog.js';
import {
  type ResourceOptions,
  readSkillResource,
  type SkillResource,
} from '../disclosure/resources.js';
import { type RouteOptions, type RouteResult, SkillRouter } from '../disclosure/router.js';
import { SkillhostError } from '../errors.js';
import {
  type ActiveSkillGrants,
  evaluate,
  type PolicyConfig,
  type PolicyDecision,
  type ToolRequest,
} from '../policy/engine.js';
import { RUNTIME_TOOLS_ALLOWED_BY_DEFAULT } from '../policy/tools.js';
import { unusableReason } from '../registry/entries.js';
import type { RegistryChanges, RegistryEntry, SkillRegistry } from '../registry/registry.js';
import type { SkillSource } from '../registry/sources.js';
import { usableEntry } from '../registry/usable.js';
import {
  type ActivationHost,
  type ActivationOptions,
  activateAsking,
  activateWithoutAsking,
} from './activate.js';
import { type AgentBase, type LoadAgentOptions, type LoadedAgent, loadAgent } from './agents.js';
import { type GrantRules, SessionGrants } from './grants.js';
import { RegistryHub } from './hub.js';
import { openRuntimeRegistry, type RuntimeParts, workspaceHostOf } from './parts.js';
import {
  discoveryRecord,
  failureRecord,
  listRecord,
  readRecord,
  sessionStartRecord,
  withCallId,
} from './records.js';
import { approveSkillScript, explainSkillScript, runSkillScript } from './script-run.js';
import {
  callRuntimeTool,
  runtimeTools,
  type ToolCallOptions,
  type ToolCallResult,
  type ToolDefinition,
} from './tools.js';
import type {
  AgentAuditEvent,
  Refusal,
  ScriptRun,
  SessionOptions,
  SetupAuditEvent,
  SkillFileListing,
  SkillRuntime,
} from './types.js';
import {
  callWorkspaceTool,
  isWorkspaceToolName,
  type WorkspaceToolHost,
  workspaceTools,
} from './workspace-tools.js';

const DEFAULT_LISTING = { maxFiles: 100, maxDepth: 4 };

/** The facade behind the `SkillRuntime` interface. */
export class Runtime implements SkillRuntime {
  readonly #parts: RuntimeParts;
  readonly #hub: RegistryHub;
  /** The session that opened the registry owns it (closes the watch); others only read it. */
  readonly #ownsRegistry: boolean;
  readonly #registry: SkillRegistry;
  readonly #session: SkillSession;
  readonly #trail: AuditTrail;
  /** What activation needs of this runtime (the gate, the session, approvals, grants, trail). */
  readonly #activation: ActivationHost;
  /** The policy for the runtime's own capabilities (its tools allowed by default). */
  readonly #gateConfig: PolicyConfig;
  /** What the host tools need of this runtime. */
  readonly #workspaceHost: WorkspaceToolHost;
  /** Grants of skills activated in the current turn (or by the session's rules). */
  readonly #grants: SessionGrants;
  /** Tool calls run one at a time, in the order they were made. */
  #queue: Promise<unknown> = Promise.resolve();
  /** The model's id of the tool call running now, for its permission records. */
  #callId: string | undefined;
  /** The router's index of the offered skills, and the registry revision it was made for. */
  #router: { readonly revision: number; readonly router: SkillRouter } | undefined;
  readonly #sessions = new Set<Runtime>();
  #closed = false;

  /**
   * Opens the registry and records what each source holds; with `hub`, a further session over
   * a registry another session opened (`openSession`).
   */
  constructor(
    parts: RuntimeParts,
    hub?: {
      readonly hub: RegistryHub;
      readonly parent: string;
      readonly rules?: GrantRules;
    },
  ) {
    this.#parts = parts;
    this.#grants = new SessionGrants(hub?.rules ?? {}, parts.now);
    this.#ownsRegistry = hub === undefined;
    this.#hub = hub?.hub ?? new RegistryHub(openRuntimeRegistry(parts));
    this.#registry = this.#hub.registry;
    const listing = { ...DEFAULT_LISTING, ...parts.listing };
    this.#session = new SkillSession(this.#registry, {
      fs: parts.fs,
      maxListedFiles: listing.maxFiles,
      maxListingDepth: listing.maxDepth,
    });
    this.#trail = new AuditTrail({
      sink: parts.audit.sink,
      hash: parts.hash,
      now: parts.now,
      sessionId: parts.audit.sessionId,
    });
    this.#gateConfig = {
      ...parts.policy,
      defaults: {
        ...Object.fromEntries(RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.map((tool) => [tool, 'allow'])),
        ...parts.policy.defaults,
      },
    };
    this.#activation = {
      approvals: parts.approvals,
      confirm: parts.confirm,
      session: this.#session,
      hostTools: parts.policy.tools,
      record: (input) => this.#record(input),
      resolve: (name) => this.#registry.resolve(name),
      contentHash: (entry) => this.#registry.contentHash(entry),
      activeHash: (address) => this.#session.activeHash(address),
      gate: (request) => this.#gate(request),
      grant: (grants) => this.#grants.add(grants),
    };
    this.#workspaceHost = workspaceHostOf(parts, {
      grants: () => this.grants,
      record: (input) => this.#record(input),
    });
    // The session's start and what each source holds: flushed to disk once, before anything
    // can happen.
    const group = parts.audit.sink.group?.bind(parts.audit.sink) ?? ((records) => records());
    group(() => {
      this.#record(sessionStartRecord(parts.policy, hub?.parent));
      if (hub !== undefined) return;
      for (const source of this.#registry.sources) {
        const entries = this.#registry.entries.filter((entry) => entry.source.id === source.id);
        const findings = this.#registry.diagnostics.filter(
          (finding) => finding.file === source.root || finding.file.startsWith(`${source.root}/`),
        );
        this.#record(discoveryRecord(source, entries, findings));
      }
    });
  }

  get sources(): readonly SkillSource[] {
    return this.#registry.sources;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.#registry.diagnostics;
  }

  get revision(): number {
    return this.#hub.revision;
  }

  get grants(): readonly ActiveSkillGrants[] {
    return this.#grants.all;
  }

  /** Notes a call of this session (an idle session's grants end first, by its rules). */
  #called(): void {
    this.#grants.called();
  }

  /** The host's tools, for the tool table. */
  get hostTools(): readonly string[] {
    return this.#parts.policy.tools;
  }

  get canRunScripts(): boolean {
    return this.#parts.scripts !== undefined;
  }

  get scriptsMayWrite(): boolean {
    return this.#parts.scripts?.workspace?.writable === true;
  }

  get scriptsMayRunUnsandboxed(): boolean {
    return this.#parts.scripts?.allowUnsandboxed === true;
  }

  get scriptsMayUseNetwork(): boolean {
    return this.#parts.scripts?.allowNetwork === true;
  }

  /** Records an event (fails closed: throws AUDIT_UNAVAILABLE when the log cannot be written). */
  #record(input: AuditEventInput): void {
    this.#trail.record(withCallId(input, this.#callId));
  }

  skills(): readonly RegistryEntry[] {
    return this.#registry.entries;
  }

  unusableCopy(name: string): RegistryEntry | undefined {
    const bare = name.includes('@') ? name.slice(0, name.indexOf('@')) : name;
    if (this.#parts.scope !== undefined && !this.#parts.scope.includes(bare)) return undefined;
    const entry =
      this.#registry.resolve(name) ??
      (name.includes('@') ? undefined : this.#registry.copies(bare)[0]);
    return entry !== undefined && unusableReason(entry.status) !== undefined ? entry : undefined;
  }

  offered(): RegistryEntry[] {
    const usable = this.#registry.active();
    const scope = this.#parts.scope;
    if (scope === undefined) return usable;
    const names = new Set(scope);
    return usable.filter((entry) => names.has(entry.name));
  }

  resolve(nameOrAddress: string): RegistryEntry | undefined {
    return this.#registry.resolve(nameOrAddress);
  }

  catalog(options: CatalogOptions = {}): CatalogResult {
    return renderCatalog(
      this.offered().map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
        location: entry.skillFile,
        trusted: entry.source.trust === 'trusted',
      })),
      { ...this.#parts.catalog, ...options },
    );
  }

  route(task: string, options: RouteOptions = {}): RouteResult {
    // The index is made once per revision of the registry: searches in a session reuse it.
    const revision = this.revision;
    if (this.#router?.revision !== revision) {
      this.#router = {
        revision,
        router: new SkillRouter(
          this.offered().map((entry) => ({
            name: entry.name,
            description: entry.metadata?.description ?? '',
            trusted: entry.source.trust === 'trusted',
          })),
        ),
      };
    }
    return this.#router.router.route(task, options);
  }

  /** The usable entry of a name or address; throws SKILL_NOT_FOUND or SKILL_UNAVAILABLE. */
  #usable(name: string): RegistryEntry {
    return usableEntry(this.#registry, name);
  }

  /**
   * The policy's word on one of the runtime's own capabilities (activation, resource reads):
   * allowed unless the host's ceiling, deny rules or defaults say otherwise. A refusal throws
   * PERMISSION_DENIED, or PERMISSION_REQUIRED when the host wants each call confirmed.
   */
  #gate(request: ToolRequest): PolicyDecision {
    const decision = evaluate(request, { config: this.#gateConfig, active: this.grants });
    if (decision.effect === 'allow') return decision;
    throw new SkillhostError(
      decision.effect === 'deny' ? 'PERMISSION_DENIED' : 'PERMISSION_REQUIRED',
      `${request.tool} ${JSON.stringify((request.path ?? '').slice(0, 200))}: ${decision.reason}`,
      { details: { rule: decision.rule } },
    );
  }

  #decide(request: ToolRequest): PolicyDecision {
    const approvals = this.#parts.approvals;
    return evaluate(request, {
      config: this.#parts.policy,
      active: this.grants,
      ...(approvals === undefined ? {} : { approved: (key: string) => approvals.has(key) }),
    });
  }

  activate(name: string, options: ActivationOptions): Activation {
    this.#called();
    return activateWithoutAsking(this.#activation, name, options);
  }

  requestActivation(name: string, options: ActivationOptions): Promise<Activation> {
    this.#called();
    return activateAsking(this.#activation, name, options);
  }

  isActive(nameOrAddress: string): boolean {
    const entry = this.#registry.resolve(nameOrAddress);
    return entry !== undefined && this.#session.isActive(entry.address);
  }

  /**
   * A read the model asks for (the `read_skill_resource` tool): an untrusted skill's files only
   * once its activation was confirmed, so that reading its SKILL.md is no way around that.
   */
  readResourceForModel(name: string, path: string): SkillResource {
    const entry = this.#registry.resolve(name);
    if (
      entry !== undefined &&
      entry.source.trust !== 'trusted' &&
      !this.#session.isActive(entry.address)
    ) {
      const error = new SkillhostError(
        'PERMISSION_REQUIRED',
        `Skill ${entry.address} is untrusted: activate it first (the user is asked) to read its files`,
      );
      this.#record(failureRecord('resource-read', name, error, { path, triggeredBy: 'model' }));
      throw error;
    }
    return this.readResource(name, path);
  }

  readResource(name: string, path: string, options: ResourceOptions = {}): SkillResource {
    this.#called();
    let resource: SkillResource;
    let gate: PolicyDecision;
    let entry: RegistryEntry;
    try {
      gate = this.#gate({ tool: 'read_skill_resource', path });
      entry = this.#usable(name);
      resource = readSkillResource(this.#parts.fs, entry, path, {
        ...this.#parts.resources,
        ...options,
      });
    } catch (error) {
      this.#record(failureRecord('resource-read', name, error, { path }));
      throw error;
    }
    this.#record(readRecord(entry, this.#registry.contentHash(entry), resource, gate));
    return resource;
  }

  listFiles(
    name: string,
    options: { readonly maxFiles?: number; readonly maxDepth?: number } = {},
  ): SkillFileListing {
    const caps = { ...DEFAULT_LISTING, ...this.#parts.listing, ...options };
    let gate: PolicyDecision;
    let entry: RegistryEntry;
    try {
      gate = this.#gate({ tool: 'read_skill_resource', path: '' });
      entry = this.#usable(name);
    } catch (error) {
      this.#record(failureRecord('resource-list', name, error));
      throw error;
    }
    const { files, unlisted } = listSkillFiles(
      this.#parts.fs,
      entry.directory,
      caps.maxFiles,
      caps.maxDepth,
    );
    this.#record(listRecord(entry, files.length, unlisted, gate));
    return { skill: entry, files, unlisted };
  }

  runScript(
    name: string,
    script: string,
    args: readonly string[] = [],
    options: { readonly approveOnce?: boolean } = {},
  ): Promise<ScriptRun> {
    this.#called();
    return runSkillScript(this.#scriptHost(), name, script, args, options.approveOnce === true);
  }

  explainScript(
    name: string,
    script: string,
    args: readonly string[] = [],
  ): Promise<SandboxExplanation> {
    return explainSkillScript(this.#scriptHost(), name, script, args);
  }

  #scriptHost() {
    return {
      fs: this.#parts.fs,
      hash: this.#parts.hash,
      scripts: this.#parts.scripts,
      approvals: this.#parts.approvals,
      confirm: this.#parts.confirm,
      usable: (skill: string) => this.#usable(skill),
      isActive: (address: string) => this.#session.isActive(address),
      decide: (request: ToolRequest) => this.#decide(request),
      record: (input: AuditEventInput) => this.#record(input),
    };
  }

  approveScript(
    name: string,
    script: string,
    options: { readonly network?: boolean } = {},
  ): { readonly skill: string; readonly script: string; readonly contentHash: string } {
    return approveSkillScript(this.#scriptHost(), name, script, options.network === true);
  }

  authorize(request: ToolRequest): PolicyDecision {
    this.#called();
    const decision = this.#decide(request);
    this.#record({
      event: 'permission-decide',
      skill_name: decision.skill ?? null,
      tool_or_script_calls: [
        {
          tool: request.tool,
          ...(request.command === undefined ? {} : { command: request.command }),
          ...(request.path === undefined ? {} : { path: request.path }),
          decision: decision.decision,
        },
      ],
      details: {
        effect: decision.effect,
        rule: decision.rule,
        reason: decision.reason,
        ...(decision.grant === undefined ? {} : { grant: decision.grant }),
      },
    });
    return decision;
  }

  recordRefusal(refusal: Refusal): void {
    this.#record(
      failureRecord(refusal.event, refusal.skill, refusal.error, {
        triggeredBy: refusal.triggeredBy,
        path: refusal.path,
      }),
    );
  }

  recordAgentEvent(event: AgentAuditEvent): void {
    this.#record({ event: event.event, details: event.details });
  }

  recordSetup(name: string, event: SetupAuditEvent): void {
    const entry = this.#usable(name);
    this.#record({
      event: 'environment-setup',
      skill_name: entry.name,
      source: entry.source.id,
      content_hash: event.contentHash,
      tool_or_script_calls: event.commands.map((command) => ({
        tool: 'setup',
        args: command.argv,
        cwd: command.cwd,
        ...(command.exitCode === undefined ? {} : { exit_code: command.exitCode }),
        ...(command.durationMs === undefined ? {} : { duration_ms: command.durationMs }),
      })),
      ...(event.error === undefined
        ? {}
        : { error: { code: event.error.code, message: event.error.message } }),
      details: { phase: event.phase, ...event.details },
    });
  }

  endTurn(): void {
    this.#grants.clear();
  }

  tools(): ToolDefinition[] {
    // The definitions depend only on the offered skills (the registry), the policy and the
    // runner, and the last two are fixed for the runtime's life.
    return this.#hub.tools(() => [...runtimeTools(this), ...workspaceTools(this.#workspaceHost)]);
  }

  callTool(name: string, input: unknown, options: ToolCallOptions = {}): Promise<ToolCallResult> {
    const call = this.#queue.then(async () => {
      this.#called();
      // Calls run one at a time: the records written meanwhile are this call's.
      this.#callId = typeof options.callId === 'string' ? options.callId.slice(0, 200) : undefined;
      try {
        return await (isWorkspaceToolName(String(name))
          ? callWorkspaceTool(this.#workspaceHost, name, input)
          : callRuntimeTool(this, name, input));
      } finally {
        this.#callId = undefined;
      }
    });
    this.#queue = call.catch(() => undefined);
    return call;
  }

  loadAgent(
    name: string,
    options: LoadAgentOptions & { readonly bases: readonly AgentBase[] },
  ): LoadedAgent {
    const yaml = options.yaml ?? this.#parts.yaml;
    return loadAgent(this, this.#parts.fs, options.bases, name, {
      ...options,
      ...(yaml === undefined ? {} : { yaml }),
    });
  }

  refresh(): RegistryChanges {
    return this.#hub.refresh();
  }

  watch(watcher: DirectoryWatcher, options: { readonly debounceMs?: number } = {}): WatchHandle {
    return this.#hub.watch(watcher, options);
  }

  onChange(listener: (changes: RegistryChanges) => void): () => void {
    return this.#hub.onChange(listener);
  }

  openSession(options: SessionOptions): SkillRuntime {
    if (this.#closed)
      throw new SkillhostError('USAGE', 'This runtime is closed; open sessions before closing it');
    const { id, ...rules } = options;
    const session = new Runtime(
      { ...this.#parts, audit: { sink: this.#parts.audit.sink, sessionId: id } },
      { hub: this.#hub, parent: this.#parts.audit.sessionId, rules },
    );
    this.#sessions.add(session);
    session.#sessions.add(this);
    return session;
  }

  get sessionId(): string {
    return this.#parts.audit.sessionId;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const other of this.#sessions) other.#sessions.delete(this);
    // The session that opened the registry closes its sessions and the watch with it.
    if (this.#ownsRegistry) {
      for (const session of [...this.#sessions]) await session.close();
      await this.#hub.close();
    }
    this.#trail.close();
  }
}
