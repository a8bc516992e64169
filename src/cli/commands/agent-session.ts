import {
  type AgentLoopResult,
  type ApprovalBroker,
  agentSystemPrompt,
  type CompactionOutcome,
  type ContextManager,
  EVENT_SCHEMA_VERSION,
  isApiProvider,
  type LoopEvent,
  type ModelHandle,
  modelHandle,
  runAgentLoop,
} from '../../internal.js';
import {
  type Activation,
  agentTools,
  type LoadedAgent,
  readAgent,
  resolveModelPlan,
  type ScriptWorkspace,
  SkillhostError,
  type SkillRuntime,
} from '../../node/index.js';
import { type ParsedArgs, positiveOption, UsageError } from '../args.js';
import type { CliDeps, CliIO, CliStream, SessionFiles } from '../io.js';
import { printable } from '../printable.js';
import { skillhostHome, sourceSettings } from '../registry-options.js';
import { defaultWorkspace, hostTools, openRuntime, runsFolder } from '../runtime-options.js';
import { AGENT_OPTIONS, agentBases } from './agent.js';
import { redactor, type TerminalView } from './agent-view.js';
import { sessionBasics } from './session-basics.js';
import { CONTEXT_OPTIONS, sessionContext } from './session-context.js';
import {
  catalogBudget,
  catalogRecord,
  readSession,
  type SessionState,
  sessionStore,
} from './session-log.js';

/**
 * What `agent run` and `chat` share: the session (log, resume, grants), the runtime with the
 * agent's tools and the host tools over the workspace, the model plan and keys, the approval
 * broker, the events and their rendering, and one turn of the loop. The two commands differ
 * only in how turns come (one task; a prompt, turn after turn) and in what they print between.
 */

export const SESSION_OPTIONS = {
  ...AGENT_OPTIONS,
  'base-url': { type: 'string' },
  'max-steps': { type: 'string' },
  'max-output-tokens': { type: 'string' },
  'catalog-budget': { type: 'string' },
  timeout: { type: 'string' },
  workspace: { type: 'string' },
  'workspace-writable': { type: 'boolean' },
  'no-workspace': { type: 'boolean' },
  expose: { type: 'string', multiple: true },
  protect: { type: 'string', multiple: true },
  yes: { type: 'boolean' },
  allow: { type: 'string', multiple: true },
  resume: { type: 'string' },
  'acp-command': { type: 'string' },
  'cursor-print': { type: 'boolean' },
  ...CONTEXT_OPTIONS,
} as const;

/** A key as a provider quotes it in an error, its middle masked with asterisks. */
const MASKED_KEY = /[A-Za-z0-9_-]{2,}\*{3,}[A-Za-z0-9_-]{0,12}/g;

/** The API key of a provider: the environment first, else $SKILLHOST_HOME/keys.json (private). */
export function apiKey(provider: string, deps: CliDeps): string | undefined {
  const variable =
    provider === 'anthropic'
      ? 'ANTHROPIC_API_KEY'
      : provider === 'openai'
        ? 'OPENAI_API_KEY'
        : undefined;
  if (variable === undefined) return undefined;
  const fromEnv = deps.env[variable];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const path = deps.resolvePath(skillhostHome(deps), 'keys.json');
  const text = deps.readPrivateFile?.(path);
  if (text === undefined) return undefined;
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)[provider];
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    throw new SkillhostError(
      'CONFIG_INVALID',
      `${path} is not JSON ({"anthropic": "...", "openai": "..."})`,
    );
  }
}

function baseUrl(provider: string, args: ParsedArgs, deps: CliDeps): string | undefined {
  const given = args.options['base-url'];
  if (given !== undefined) return String(given);
  const variable =
    provider === 'anthropic'
      ? deps.env.ANTHROPIC_BASE_URL
      : provider === 'openai'
        ? deps.env.OPENAI_BASE_URL
        : undefined;
  return variable === undefined || variable === '' ? undefined : variable;
}

/** The workspace of a session: --workspace DIR, else the project folder; read-only unless writable. */
function sessionWorkspace(args: ParsedArgs, deps: CliDeps): ScriptWorkspace | null | undefined {
  const expose = (args.options.expose as readonly string[] | undefined) ?? [];
  const protect = (args.options.protect as readonly string[] | undefined) ?? [];
  const writable = args.options['workspace-writable'] === true;
  if (args.options['no-workspace'] === true) {
    if (args.options.workspace !== undefined || writable || expose.length > 0 || protect.length > 0)
      throw new UsageError(
        '--no-workspace goes with none of --workspace, --workspace-writable, --expose, --protect',
      );
    return null;
  }
  if (protect.length > 0 && !writable)
    throw new UsageError('--protect is for a writable workspace (--workspace-writable)');
  const project = defaultWorkspace(sourceSettings(args, deps).projectDir, deps);
  const folder =
    args.options.workspace === undefined
      ? undefined
      : deps.resolvePath(deps.cwd, String(args.options.workspace));
  // What commands write in a read-only workspace is kept in the project's .skillhost/runs.
  const base =
    folder === undefined
      ? project
      : { path: folder, writable: false, outputs: project?.outputs ?? runsFolder(folder, deps) };
  if (base === undefined) {
    if (writable || expose.length > 0)
      throw new UsageError(
        'the project folder holds your home folder, so it is no workspace by default: name one with --workspace DIR',
      );
    return undefined;
  }
  const { outputs, ...rest } = base;
  return {
    ...rest,
    writable,
    ...(writable || outputs === undefined ? {} : { outputs }),
    ...(expose.length > 0 ? { expose } : {}),
    ...(protect.length > 0 ? { protect } : {}),
  };
}

/** A session's model: a model API's handle, or the model a command-line agent reported. */
export interface SessionModel {
  readonly provider: string;
  readonly model: string;
}

/** How a turn ended: the loop's end state, with the model that answered it. */
export type SessionTurnEnd = Omit<AgentLoopResult, 'model' | 'messages'> & {
  readonly model: SessionModel;
};

/** One agent session: its runtime, model, history and log; `turn` runs the loop once. */
export interface AgentSession {
  readonly id: string;
  readonly name: string;
  readonly runtime: SkillRuntime;
  readonly agent: LoadedAgent;
  readonly broker: ApprovalBroker;
  /** The terminal view (undefined with --json). */
  readonly view: TerminalView | undefined;
  /** The model first, then its fallback (a command-line agent: the model it reported). */
  readonly models: readonly SessionModel[];
  /**
   * The conversation the next turn sends (after the system prompt, which never changes): what a
   * context command such as compaction works on, in place, writing what it did to the log.
   */
  readonly history: AgentLoopResult['messages'];
  /** Appends a record to the session's log (keys redacted). */
  log(record: Record<string, unknown>): void;
  /** Runs one user turn (a task, or none to go on with a resumed history) to its end. */
  turn(task: string | undefined, signal: AbortSignal): Promise<SessionTurnEnd>;
  /** Switches the model of the next turns (an alias or an id of the session's provider). */
  setModel(model: string): SessionModel;
  /** The context manager: the skill ledger and compaction. */
  readonly context: ContextManager;
  /** Compacts the history now (`/compact`), recording it as a compaction at the threshold would be. */
  compact(signal: AbortSignal): Promise<CompactionOutcome>;
  /** The skills active now (activated in the session, not preloaded). */
  activeSkills(): string[];
  /** Writes to a stream, with every key redacted. */
  write(stream: CliStream, text: string): void;
  /** A text with every key redacted. */
  redact(text: string): string;
  close(): Promise<void>;
}

/** The history as the session log has it, for checking what a resumed session can do. */
export function resumeState(args: ParsedArgs, deps: CliDeps, name: string) {
  const store: SessionFiles | undefined = sessionStore(deps);
  const id = args.options.resume === undefined ? undefined : String(args.options.resume);
  if (id === undefined) return { store, resumed: undefined as SessionState | undefined };
  if (store === undefined) throw new UsageError('sessions are not kept here');
  const resumed = readSession(store, id);
  if (resumed.agent !== name)
    throw new UsageError(`session ${id} is of agent '${resumed.agent}', not '${name}'`);
  return { store, resumed };
}

/**
 * Opens an agent session: checks the options, reads the agent (its `tools` narrow the host's),
 * opens the runtime with the broker as its `confirm` and the host tools over the workspace,
 * resolves the model and its key, and writes the session's header (or its resumption).
 */
export async function openAgentSession(
  args: ParsedArgs,
  io: CliIO,
  deps: CliDeps,
  options: {
    readonly name: string;
    readonly json: boolean;
    readonly store: SessionFiles | undefined;
    readonly resumed: SessionState | undefined;
    /** Hears every event of the session (a chat counts cost by the model of each step). */
    readonly listen?: (event: LoopEvent) => void;
  },
): Promise<AgentSession> {
  const { name, json, resumed } = options;
  const basics = sessionBasics(args, io, deps, options);
  const { sessionId, log, write, view, onEvent, broker } = basics;
  const maxSteps = positiveOption(args.options['max-steps'], 'max-steps');
  const maxOutputTokens = positiveOption(args.options['max-output-tokens'], 'max-output-tokens');
  const timeout = positiveOption(args.options.timeout, 'timeout');
  const workspace = sessionWorkspace(args, deps);

  // The agent's tools narrow the host's: read first, so the runtime opens with them.
  const bases = agentBases(args, deps);
  const definition = readAgent(deps.fs, bases, name);
  const narrowed = agentTools(hostTools(args), definition.manifest.tools);
  if (narrowed.unknown.length > 0 && !json)
    io.stderr.write(
      `skillhost: warning: ${definition.directory}/agent.yaml: tools ${narrowed.unknown.map((entry) => `'${printable(entry)}'`).join(', ')} ${narrowed.unknown.length === 1 ? 'names' : 'name'} no tool or device (patterns belong in allowed-tools or --allow); ignored\n`,
    );
  const overrides = {
    ...(args.options.model === undefined ? {} : { model: String(args.options.model) }),
    ...(args.options.provider === undefined ? {} : { provider: String(args.options.provider) }),
  };
  // A command-line agent brings its own host tools (Claude Code's Bash, Read, Edit, ...) and
  // reaches ours through the MCP server: the runtime offers it no workspace tools.
  const provider = resolveModelPlan(definition.manifest.models, overrides).provider;
  if (!isApiProvider(provider)) {
    const { openCliAgentSession } = await import('./agent-cli.js');
    return openCliAgentSession(args, io, deps, {
      ...options,
      basics,
      bases,
      tools: narrowed.tools,
      overrides,
      workspace,
      maxSteps,
      timeout,
    });
  }
  for (const option of ['acp-command', 'cursor-print'] as const)
    if (args.options[option] !== undefined)
      throw new UsageError(`--${option} is for a command-line agent (--provider acp or cursor)`);
  const { runtime, close } = openRuntime(
    args,
    deps,
    io,
    workspace === undefined ? {} : { workspace },
    { confirm: broker.confirm, tools: narrowed.tools, workspaceTools: true },
  );
  try {
    const agent = runtime.loadAgent(name, { bases, ...overrides, ...catalogBudget(args) });
    const { plan } = agent;
    if (!isApiProvider(plan.provider))
      throw new SkillhostError('INTERNAL_ERROR', `${plan.provider} is no model API`);
    const key = apiKey(plan.provider, deps);
    const keyRedact = redactor(key === undefined ? [] : [key]);
    basics.setRedact((text) => keyRedact(text).replace(MASKED_KEY, '[redacted]'));
    const url = baseUrl(plan.provider, args, deps);
    const connection = {
      provider: plan.provider,
      ...(key === undefined ? {} : { apiKey: key }),
      ...(url === undefined ? {} : { baseURL: url }),
    };
    let models: ModelHandle[] = [modelHandle(connection, plan.model)];
    if (plan.fallback !== undefined) models.push(modelHandle(connection, plan.fallback));

    let restored: Activation[] = [];
    if (resumed === undefined) {
      log({
        type: 'session',
        v: EVENT_SCHEMA_VERSION,
        id: sessionId,
        agent: name,
        provider: plan.provider,
        model: plan.model,
        fallback: plan.fallback ?? null,
        created: deps.now().toISOString(),
        workspace: workspace?.path ?? null,
      });
    } else {
      log({
        type: 'resume',
        time: deps.now().toISOString(),
        provider: plan.provider,
        model: plan.model,
      });
      restored = await restoreSkills(runtime, resumed.activeSkills);
    }
    // What this run's model is shown of the skills, kept for `skillhost ui` (the skills change).
    log(catalogRecord(agent, deps.hash, deps.now().toISOString()));
    // Built once for the session: byte for byte the same at every step and every turn.
    const system = agentSystemPrompt({
      instructions: agent.instructions,
      skills: agent.skills.map((skill) => ({
        name: skill.name,
        directory: skill.directory,
        body: skill.body,
      })),
      catalog: agent.catalog,
    });
    const history = [...(resumed?.messages ?? [])];
    // The context lifecycle: the skill ledger restored from the log, compaction (session-context.ts).
    const context = sessionContext(args, { agent, connection, resumed, restored, history, log });
    const preloaded = new Set(agent.skills.map((skill) => skill.name));
    const activeSkills = () =>
      runtime
        .offered()
        .filter((entry) => !preloaded.has(entry.name) && runtime.isActive(entry.name))
        .map((entry) => entry.name);

    const turn = async (task: string | undefined, signal: AbortSignal) => {
      basics.setTurnSignal(signal);
      if (task !== undefined) {
        const message = { role: 'user' as const, content: task };
        history.push(message);
        log({ type: 'message', message });
      }
      runtime.recordAgentEvent({
        event: 'agent-start',
        details: {
          agent: name,
          session: sessionId,
          provider: plan.provider,
          model: models[0]?.model ?? plan.model,
          fallback: models[1]?.model ?? null,
          resumed: resumed !== undefined,
        },
      });
      const end = await runAgentLoop({
        runtime,
        models,
        system,
        messages: history,
        limits: {
          ...(maxSteps === undefined ? {} : { maxSteps }),
          ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
          ...(timeout === undefined ? {} : { wallTimeMs: timeout * 1000 }),
          ...(agent.contextBudget === undefined ? {} : { contextBudget: agent.contextBudget }),
        },
        onEvent,
        onMessage: (message) => {
          history.push(message);
          log({ type: 'message', message });
        },
        approvals: broker,
        signal,
        context: context.manager,
        onHistory: context.replaceHistory,
        audit: (record) => runtime.recordAgentEvent(record),
        // A provider's error may quote the key masked (sk-ab…***…wxyz): that goes too.
        redact: basics.redact,
      });
      log({ type: 'skills', active: activeSkills() });
      runtime.recordAgentEvent({
        event: 'agent-end',
        details: {
          session: sessionId,
          status: end.status,
          limit: end.limit,
          code: end.code,
          steps: end.steps,
          input_tokens: end.usage.inputTokens,
          output_tokens: end.usage.outputTokens,
        },
      });
      return end;
    };

    const setModel = (model: string): ModelHandle => {
      const next = resolveModelPlan(agent.manifest.models, { provider: plan.provider, model });
      models = [modelHandle(connection, next.model)];
      if (next.fallback !== undefined && next.fallback !== next.model)
        models.push(modelHandle(connection, next.fallback));
      log({ type: 'model', time: deps.now().toISOString(), model: next.model });
      return models[0] as ModelHandle;
    };

    const compact = (signal: AbortSignal) =>
      context.compact({
        system,
        tools: runtime.tools(),
        model: models[0] as ModelHandle,
        signal,
        emit: onEvent,
        audit: (record) => runtime.recordAgentEvent(record),
      });

    return {
      id: sessionId,
      name,
      runtime,
      agent,
      broker,
      view,
      get models() {
        return models;
      },
      history,
      log,
      turn,
      setModel,
      context: context.manager,
      compact,
      activeSkills,
      write,
      redact: basics.redact,
      close,
    };
  } catch (error) {
    await close();
    if (SkillhostError.isInstance(error))
      throw new SkillhostError(error.code, basics.redact(error.message), {
        diagnostics: error.diagnostics,
      });
    throw error;
  }
}

/**
 * Activates again the skills a resumed session had activated (the grants given for it answer
 * their approvals); returns the activations, whose texts the skill ledger takes back.
 */
async function restoreSkills(
  runtime: SkillRuntime,
  names: readonly string[],
): Promise<Activation[]> {
  const restored: Activation[] = [];
  for (const name of names) {
    const entry = runtime.resolve(name);
    if (entry === undefined) continue;
    try {
      restored.push(
        entry.source.trust === 'trusted'
          ? runtime.activate(name, { triggeredBy: 'user' })
          : await runtime.requestActivation(name, { triggeredBy: 'model' }),
      );
    } catch {
      // A skill that cannot be activated now is left out; the model can ask for it again.
    }
  }
  return restored;
}
