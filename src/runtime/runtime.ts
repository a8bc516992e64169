import type { AuditEventInput, AuditRecord } from '../audit/trail.js';
import { type AuditSink, AuditTrail } from '../audit/trail.js';
import type {
  CacheStore,
  ContentHasher,
  ScriptLimits,
  ScriptRunner,
  ScriptRunResult,
  SkillFileSystem,
} from '../deps.js';
import { type Activation, type ActivationTrigger, SkillSession } from '../disclosure/activation.js';
import { type CatalogOptions, type CatalogResult, renderCatalog } from '../disclosure/catalog.js';
import {
  type ResourceOptions,
  readSkillResource,
  type SkillResource,
} from '../disclosure/resources.js';
import { type RouteOptions, type RouteResult, SkillRouter } from '../disclosure/router.js';
import { SkillhostError } from '../errors.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { parseAllowedTools } from '../policy/allowed-tools.js';
import {
  type ActiveSkillGrants,
  approvalKey,
  evaluate,
  type PolicyConfig,
  type PolicyDecision,
  type ToolRequest,
} from '../policy/engine.js';
import { RUNTIME_TOOLS_ALLOWED_BY_DEFAULT } from '../policy/tools.js';
import type { DiscoveryOptions } from '../registry/discover.js';
import { type RegistryEntry, SkillRegistry } from '../registry/registry.js';
import type { SkillSource, SourceKind } from '../registry/sources.js';
import { loadScript } from './scripts.js';
import {
  callRuntimeTool,
  runtimeTools,
  type ToolCallResult,
  type ToolDefinition,
} from './tools.js';

/** A user's answer to a confirmation: run once, refuse, or approve this exact content for good. */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

export interface ApprovalQuestion {
  readonly skill: string;
  readonly source: string;
  readonly trusted: boolean;
  readonly script: string;
  readonly contentHash: string;
  readonly interpreter: string;
  readonly args: readonly string[];
  readonly reason: string;
}

/** Approvals given with "always", bound to source, skill, content hash and script. */
export interface ApprovalStore {
  has(key: string): boolean;
  add(key: string, note: Readonly<Record<string, string>>): void;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = Object.freeze({
  timeoutMs: 60_000,
  maxProcesses: 64,
  maxMemoryBytes: 1024 * 1024 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
  maxOpenFiles: 256,
  maxCapturedBytes: 32 * 1024,
  maxOutputBytes: 64 * 1024 * 1024,
});

export interface RuntimeOptions {
  readonly fs: SkillFileSystem;
  readonly sources: readonly SkillSource[];
  /** SHA-256 (the node entry's `sha256`): content hashes and the audit chain. */
  readonly hash: ContentHasher;
  readonly policy: PolicyConfig;
  /** Where audit records go; every capability fails closed when it cannot be written. */
  readonly audit: { readonly sink: AuditSink; readonly sessionId: string };
  /** The clock (injected: the library never reads it itself). */
  readonly now: () => Date;
  readonly precedence?: readonly SourceKind[];
  readonly discovery?: DiscoveryOptions;
  readonly cache?: CacheStore;
  readonly version?: string;
  readonly keepScans?: boolean;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
  /** Runs scripts; without it, scripts cannot run. */
  readonly scripts?: {
    readonly runner: ScriptRunner;
    readonly limits?: Partial<ScriptLimits>;
    /** Run without an OS sandbox when none is available (logged as such). Default false. */
    readonly allowUnsandboxed?: boolean;
    /** A folder scripts see as their working directory (read-only unless writable). */
    readonly workspace?: { readonly path: string; readonly writable: boolean };
  };
  readonly approvals?: ApprovalStore;
  /** Asks the user about a call the policy wants confirmed; without it, such calls are refused. */
  readonly confirm?: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
  readonly resources?: ResourceOptions;
  /**
   * The skills offered to the model (names): the catalog, search and the model-facing tools see
   * only these. Default: every usable skill. Narrows only; it never makes a skill usable.
   */
  readonly scope?: readonly string[];
  /** Defaults for the catalog (format, token budget, exact counter). */
  readonly catalog?: CatalogOptions;
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

/**
 * One object that owns the registry, the policy and the audit trail: every capability (activate,
 * read, run, authorize) goes through the policy where it applies and leaves one audit record,
 * written before the capability takes effect, so that an unwritable log stops it.
 */
export class SkillRuntime {
  readonly registry: SkillRegistry;
  readonly session: SkillSession;
  readonly trail: AuditTrail;
  readonly #options: RuntimeOptions;
  /** The policy for the runtime's own capabilities (its tools allowed by default), made once. */
  #gateConfig: PolicyConfig | undefined;
  /** Grants of skills activated in the current turn. */

  readonly #grants = new Map<string, ActiveSkillGrants>();

  private constructor(options: RuntimeOptions, registry: SkillRegistry) {
    this.#options = options;
    this.registry = registry;
    this.session = new SkillSession(registry, { fs: options.fs });
    this.trail = new AuditTrail({
      sink: options.audit.sink,
      hash: options.hash,
      now: options.now,
      sessionId: options.audit.sessionId,
    });
  }

  /** Discovers the sources, starts the audit session and records what was found. */
  static open(options: RuntimeOptions): SkillRuntime {
    const registry = SkillRegistry.open({
      fs: options.fs,
      sources: options.sources,
      hash: options.hash,
      ...(options.precedence === undefined ? {} : { precedence: options.precedence }),
      ...(options.discovery === undefined ? {} : { discovery: options.discovery }),
      ...(options.cache === undefined ? {} : { cache: options.cache }),
      ...(options.version === undefined ? {} : { version: options.version }),
      ...(options.keepScans === undefined ? {} : { keepScans: options.keepScans }),
      ...(options.yaml === undefined ? {} : { yaml: options.yaml }),
    });
    const runtime = new SkillRuntime(options, registry);
    runtime.trail.record({
      event: 'session-start',
      details: {
        policy: {
          tools: options.policy.tools,
          narrow: options.policy.narrow ?? false,
          shadow: options.policy.shadow ?? false,
        },
      },
    });
    runtime.#recordDiscovery();
    return runtime;
  }

  #recordDiscovery(): void {
    for (const source of this.registry.sources) {
      const entries = this.registry.entries.filter((entry) => entry.source === source);
      const count = (status: string) => entries.filter((entry) => entry.status === status).length;
      this.trail.record({
        event: 'skill-discover',
        source: source.id,
        details: {
          root: source.root,
          trust: source.trust,
          enabled: source.enabled,
          skills: entries.length,
          active: count('active'),
          shadowed: count('shadowed'),
          skipped: count('skipped'),
          untrusted: count('untrusted'),
          names: entries.map((entry) => `${entry.name}:${entry.status}`),
        },
      });
    }
  }

  /** Records an event (fails closed: throws AUDIT_UNAVAILABLE when the log cannot be written). */
  record(input: AuditEventInput): AuditRecord {
    return this.trail.record(input);
  }

  /** The usable skills offered to the model (all of them, or those in the scope). */
  offered(): RegistryEntry[] {
    const scope = this.#options.scope;
    const usable = this.registry.active();
    if (scope === undefined) return usable;
    const names = new Set(scope);
    return usable.filter((entry) => names.has(entry.name));
  }

  /** The catalog of the offered skills (L1). */
  catalog(options: CatalogOptions = {}): CatalogResult {
    return renderCatalog(
      this.offered().map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
        location: entry.skillFile,
        trusted: entry.source.trust === 'trusted',
      })),
      { ...this.#options.catalog, ...options },
    );
  }

  /** Ranks the usable skills for a task (the router form). */
  route(task: string, options: RouteOptions = {}): RouteResult {
    return new SkillRouter(
      this.offered().map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
      })),
    ).route(task, options);
  }

  #resolve(name: string): RegistryEntry {
    const entry = this.registry.resolve(name);
    if (entry === undefined) {
      throw new SkillhostError(
        'SKILL_NOT_FOUND',
        `No skill named ${JSON.stringify(name.slice(0, 200))}`,
      );
    }
    if (entry.status === 'skipped' || entry.status === 'untrusted') {
      throw new SkillhostError(
        'SKILL_UNAVAILABLE',
        `Skill ${entry.address} is ${entry.status === 'skipped' ? 'skipped: it has errors' : 'in a project folder that is not trusted'}`,
      );
    }
    return entry;
  }

  /**
   * Activates a skill (L2) and, for the current turn, puts its `allowed-tools` grants in force
   * (a trusted skill's grants can pre-approve; an untrusted skill's never do).
   */
  activate(name: string, options: { readonly triggeredBy: ActivationTrigger }): Activation {
    let activation: Activation;
    let gate: PolicyDecision;
    try {
      gate = this.#gate({ tool: 'activate_skill', path: name });
      activation = this.session.activate(name, options);
    } catch (error) {
      this.#recordFailure('skill-activate', name, options.triggeredBy, error);
      throw error;
    }
    const entry = this.registry.resolve(activation.address) as RegistryEntry;
    this.trail.record({
      event: 'skill-activate',
      skill_name: activation.name,
      source: activation.source,
      content_hash: activation.contentHash ?? null,
      triggered_by: options.triggeredBy,
      loaded_files: activation.alreadyActive
        ? []
        : [entry.skillFile.slice(entry.directory.length + 1)],
      details: {
        address: activation.address,
        trust: activation.trust,
        already_active: activation.alreadyActive,
        listed_files: activation.files.length,
        policy: { decision: gate.decision, effect: gate.effect, rule: gate.rule },
      },
    });
    this.#grants.set(activation.address, {
      address: activation.address,
      source: activation.source,
      trusted: activation.trust === 'trusted',
      contentHash: activation.contentHash,
      grants: parseAllowedTools(entry.metadata?.allowedTools ?? '').grants,
    });
    return activation;
  }

  /** The file system the runtime reads skills (and agents) through. */
  get fs(): SkillFileSystem {
    return this.#options.fs;
  }

  /** The host's side of the policy. */

  get policy(): PolicyConfig {
    return this.#options.policy;
  }

  /** Whether scripts can run at all (a runner was given). */
  get canRunScripts(): boolean {
    return this.#options.scripts !== undefined;
  }

  /** JSON-Schema definitions of the model-facing tools (none without a usable skill). */
  tools(): ToolDefinition[] {
    return runtimeTools(this);
  }

  /** Executes a model-facing tool call; failures are results with `isError` and a code. */
  callTool(name: string, input: unknown): Promise<ToolCallResult> {
    return callRuntimeTool(this, name, input);
  }

  /** Ends the current turn: every grant of the skills activated in it ends too. */
  endTurn(): void {
    this.#grants.clear();
  }

  /** The skills whose grants are in force. */
  get grants(): readonly ActiveSkillGrants[] {
    return [...this.#grants.values()];
  }

  #recordFailure(
    event: 'skill-activate' | 'resource-read' | 'script-run',
    skill: string,
    trigger: ActivationTrigger | null,
    error: unknown,
    extra: Partial<AuditEventInput> = {},
  ): void {
    const coded = SkillhostError.isInstance(error) ? error : undefined;
    this.trail.record({
      event,
      skill_name: skill.slice(0, 200),
      triggered_by: trigger,
      error: { code: coded?.code ?? 'UNKNOWN', message: coded?.message ?? String(error) },
      ...extra,
    });
  }

  /**
   * The policy's word on one of the runtime's own capabilities (activation, resource reads):
   * allowed unless the host's ceiling, deny rules or defaults say otherwise. A refusal throws
   * PERMISSION_DENIED, or PERMISSION_REQUIRED when the host wants each call confirmed.
   */
  #gate(request: ToolRequest): PolicyDecision {
    const policy = this.#options.policy;
    this.#gateConfig ??= {
      ...policy,
      defaults: {
        ...Object.fromEntries(RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.map((tool) => [tool, 'allow'])),
        ...policy.defaults,
      },
    };
    const decision = evaluate(request, { config: this.#gateConfig, active: this.grants });

    if (decision.effect === 'allow') return decision;
    throw new SkillhostError(
      decision.effect === 'deny' ? 'PERMISSION_DENIED' : 'PERMISSION_REQUIRED',
      `${request.tool} ${JSON.stringify((request.path ?? '').slice(0, 200))}: ${decision.reason}`,
      { details: { rule: decision.rule } },
    );
  }

  /** Reads one file of a skill (L3), within bounds, and records it. */
  readResource(name: string, path: string, options: ResourceOptions = {}): SkillResource {
    let resource: SkillResource;
    let gate: PolicyDecision;
    try {
      gate = this.#gate({ tool: 'read_skill_resource', path });
      const entry = this.#resolve(name);
      resource = readSkillResource(this.#options.fs, entry, path, {
        ...this.#options.resources,
        ...options,
      });
    } catch (error) {
      this.#recordFailure('resource-read', name, null, error, {
        loaded_files: [path.slice(0, 300)],
      });
      throw error;
    }
    const entry = this.registry.resolve(name) as RegistryEntry;
    this.trail.record({
      event: 'resource-read',
      skill_name: entry.name,
      source: entry.source.id,
      content_hash: this.registry.contentHash(entry) ?? null,
      loaded_files: [resource.path],
      details: {
        bytes: resource.size,
        media_type: resource.mediaType,
        binary: resource.content.kind === 'binary',
        policy: { decision: gate.decision, effect: gate.effect, rule: gate.rule },
      },
    });
    return resource;
  }

  /**
   * Decides a call of one of the host's tools while skills are active, and records the decision.
   * The host enforces `effect`.
   */
  authorize(request: ToolRequest): PolicyDecision {
    const decision = this.#decide(request);
    this.trail.record({
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

  #decide(request: ToolRequest): PolicyDecision {
    const approvals = this.#options.approvals;
    return evaluate(request, {
      config: this.#options.policy,
      active: this.grants,
      ...(approvals === undefined ? {} : { approved: (key: string) => approvals.has(key) }),
    });
  }

  /**
   * Runs a script of an active skill in the sandbox. Only a regular text file under the skill's
   * scripts/ folder, with an allowed interpreter and arguments without NUL, runs; the policy
   * decides (pre-approved, confirmed once or always for this exact content, or refused); the
   * bytes that were hashed are the bytes that run; every step is recorded.
   */
  async runScript(
    name: string,
    script: string,
    args: readonly string[] = [],
    options: { readonly approveOnce?: boolean } = {},
  ): Promise<ScriptRun> {
    const prepared = this.#prepareScript(name, script, args);
    const { entry, path, bytes, contentHash, interpreter } = prepared;
    const request: ToolRequest = {
      tool: 'run_skill_script',
      script: {
        skill: entry.address,
        source: entry.source.id,
        path,
        contentHash,
        interpreter,
        args,
      },
    };

    const decision = this.#decide(request);
    const call = { script: path, args: [...args], interpreter };
    this.trail.record({
      event: 'permission-decide',
      skill_name: entry.name,
      source: entry.source.id,
      content_hash: contentHash,
      tool_or_script_calls: [{ ...call, decision: decision.decision }],
      details: { effect: decision.effect, rule: decision.rule, reason: decision.reason },
    });
    let approvedBy: ScriptRun['approvedBy'] = decision.decision === 'allow' ? 'policy' : 'shadow';
    if (decision.effect === 'deny') {
      throw new SkillhostError(
        'PERMISSION_DENIED',
        `Running ${path} of ${entry.address} is denied: ${decision.reason}`,
        { details: { rule: decision.rule } },
      );
    }
    if (decision.effect === 'ask') {
      approvedBy = await this.#confirm(
        entry,
        path,
        contentHash,
        interpreter,
        args,
        decision,
        options.approveOnce === true,
      );
    }
    const scripts = this.#options.scripts;
    if (scripts === undefined)
      throw new SkillhostError('SANDBOX_UNAVAILABLE', 'This runtime has no script runner');
    const limits = { ...DEFAULT_SCRIPT_LIMITS, ...scripts.limits };
    let result: ScriptRunResult;
    try {
      result = await scripts.runner.run({
        skillDirectory: entry.directory,
        scriptPath: path,
        scriptBytes: bytes,
        interpreter,
        args,
        limits,
        ...(scripts.workspace === undefined ? {} : { workspace: scripts.workspace }),
        ...(scripts.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
      });
    } catch (error) {
      this.#recordFailure('script-run', entry.name, null, error, {
        source: entry.source.id,
        content_hash: contentHash,
        tool_or_script_calls: [call],
      });
      throw error;
    }
    this.trail.record({
      event: 'script-run',
      skill_name: entry.name,
      source: entry.source.id,
      content_hash: contentHash,
      loaded_files: [path],
      tool_or_script_calls: [
        {
          ...call,
          decision: 'allow',
          approved_by: approvedBy,
          exit_code: result.exitCode,
          signal: result.signal,
          timed_out: result.timedOut,
          output_limited: result.outputLimited,
          duration_ms: result.durationMs,
          sandbox: result.sandbox,
          stdout_bytes: result.stdout.totalBytes,
          stderr_bytes: result.stderr.totalBytes,
        },
      ],
      details:
        result.sandbox === 'none'
          ? { warning: 'ran without an OS sandbox, as explicitly allowed' }
          : {},
    });
    return { skill: entry.address, script: path, contentHash, decision, approvedBy, result };
  }

  #prepareScript(name: string, script: string, args: readonly string[]) {
    const fail = (error: SkillhostError): never => {
      this.#recordFailure('script-run', name, null, error, {
        tool_or_script_calls: [{ script: script.slice(0, 300) }],
      });
      throw error;
    };
    let entry: RegistryEntry;
    try {
      entry = this.#resolve(name);
    } catch (error) {
      return fail(error as SkillhostError);
    }
    if (!this.session.isActive(entry.address)) {
      return fail(
        new SkillhostError(
          'SKILL_NOT_ACTIVE',
          `Skill ${entry.address} is not active; activate it before running its scripts`,
        ),
      );
    }
    try {
      return { entry, ...loadScript(this.#options.fs, this.#options.hash, entry, script, args) };
    } catch (error) {
      return fail(error as SkillhostError);
    }
  }

  async #confirm(
    entry: RegistryEntry,
    path: string,
    contentHash: string,
    interpreter: string,
    args: readonly string[],
    decision: PolicyDecision,
    approveOnce: boolean,
  ): Promise<'once' | 'always'> {
    const approve = (scope: 'once' | 'always', by: string) => {
      this.trail.record({
        event: 'permission-approve',
        skill_name: entry.name,
        source: entry.source.id,
        content_hash: contentHash,
        tool_or_script_calls: [{ script: path, args: [...args], decision: 'allow' }],
        details: { scope, by },
      });
    };
    if (approveOnce) {
      approve('once', 'flag');
      return 'once';
    }
    const confirm = this.#options.confirm;
    if (confirm === undefined) {
      throw new SkillhostError(
        'PERMISSION_REQUIRED',
        `Running ${path} of ${entry.address} needs confirmation: ${decision.reason}`,
      );
    }
    const answer = await confirm({
      skill: entry.address,
      source: entry.source.id,
      trusted: entry.source.trust === 'trusted',
      script: path,
      contentHash,
      interpreter,
      args,
      reason: decision.reason,
    });
    if (answer === 'no') {
      this.trail.record({
        event: 'permission-decide',
        skill_name: entry.name,
        source: entry.source.id,
        content_hash: contentHash,
        tool_or_script_calls: [{ script: path, decision: 'deny' }],
        details: { rule: 'user', reason: 'The user refused' },
      });
      throw new SkillhostError(
        'PERMISSION_DENIED',
        `Running ${path} of ${entry.address} was refused`,
      );
    }
    if (answer === 'always') {
      const key = approvalKey({
        source: entry.source.id,
        skill: entry.address,
        contentHash,
        subject: `script:${path}`,
      });
      approve('always', 'user');
      this.#options.approvals?.add(key, { skill: entry.address, script: path, contentHash });
      return 'always';
    }
    approve('once', 'user');
    return 'once';
  }

  /** Ends the audit session. */
  close(): void {
    this.trail.close();
  }
}
