import {
  agentSystemPrompt,
  type CliAgentSession,
  type CliPermissionHandler,
  type CompactionOutcome,
  type ContextEvent,
  ContextManager,
  claudeBuiltinTools,
  claudePermissionFlags,
  EVENT_SCHEMA_VERSION,
  isRuntimeTool,
  type LoopEvent,
  policyPermissions,
  runCliTurn,
  SkillLedger,
  ZERO_USAGE,
} from '../../internal.js';
import {
  type AgentBase,
  type PolicyConfig,
  type ScriptWorkspace,
  SkillhostError,
  type SkillRuntime,
} from '../../node/index.js';
import {
  createCliAgentDriver,
  cursorPrintWarning,
  MCP_SERVER_NAME,
  randomId,
} from '../../node/internal.js';
import { type ParsedArgs, UsageError } from '../args.js';
import type { CliDeps, CliIO, SessionFiles } from '../io.js';
import { openRuntime, policyConfig } from '../runtime-options.js';
import { VERSION } from '../version.js';
import type { AgentSession, SessionModel, SessionTurnEnd } from './agent-session.js';
import type { SessionBasics } from './session-basics.js';
import { catalogBudget, catalogRecord, type SessionState } from './session-log.js';

/**
 * An agent session run by a command-line agent (Claude Code, Cursor, Gemini CLI, any ACP agent):
 * the agent runs its own loop in its own process; skillhost serves it the runtime's tools from an
 * MCP server inside this process (Streamable HTTP on 127.0.0.1, a secret per run), answers every
 * permission question it asks from the policy and the broker, and reads its output as the loop's
 * events. The session log, the audit trail, the broker and the view are those of every session.
 */

export interface CliSessionOptions {
  readonly name: string;
  readonly json: boolean;
  readonly store: SessionFiles | undefined;
  readonly resumed: SessionState | undefined;
  readonly basics: SessionBasics;
  readonly bases: readonly AgentBase[];
  /** The host's tools narrowed by the agent's: the built-ins the agent keeps. */
  readonly tools: readonly string[];
  readonly overrides: { readonly model?: string; readonly provider?: string };
  readonly workspace: ScriptWorkspace | null | undefined;
  readonly maxSteps: number | undefined;
  readonly timeout: number | undefined;
}

/** Options that only a model API has. */
const API_ONLY = ['base-url', 'max-output-tokens', 'compact-model', 'context-window'] as const;
/** Tools that write files: left out (and denied) when the workspace is read-only. */
const WRITING_TOOLS = new Set(['write', 'edit', 'notebook_edit']);

/**
 * The runtime as the MCP server sees it: every tool call of every client session goes through
 * the context manager too, so the skill ledger sees each activation (hash, text) and each use,
 * and a skill no longer in full is asked for by its hash.
 */
function ledgerRuntime(
  runtime: SkillRuntime,
  context: ContextManager,
  emit: (event: ContextEvent) => void,
): SkillRuntime {
  const bound = <T extends object>(target: T, key: string | symbol) => {
    const value = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  return new Proxy(runtime, {
    get: (target, key) => {
      if (key !== 'openSession') return bound(target, key);
      return (options: Parameters<SkillRuntime['openSession']>[0]) => {
        const session = target.openSession(options);
        return new Proxy(session, {
          get: (inner, name) =>
            name === 'callTool'
              ? (tool: string, input: unknown) => context.callTool(inner, tool, input, emit)
              : bound(inner, name),
        });
      };
    },
  });
}

function agentEnv(deps: CliDeps): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(deps.env)) if (value !== undefined) env[key] = value;
  return env;
}

/** Opens a session run by a command-line agent; see `openAgentSession`. */
export async function openCliAgentSession(
  args: ParsedArgs,
  io: CliIO,
  deps: CliDeps,
  options: CliSessionOptions,
): Promise<AgentSession> {
  const { name, resumed, basics, workspace } = options;
  const { sessionId, log, onEvent, broker } = basics;
  for (const option of API_ONLY)
    if (args.options[option] !== undefined)
      throw new UsageError(
        `--${option} is for model APIs; a command-line agent (--provider) uses its own`,
      );
  const acpCommand =
    args.options['acp-command'] === undefined ? undefined : String(args.options['acp-command']);
  const writable = workspace?.writable === true;
  // Without a writable workspace the agent keeps no tool that writes files; without a workspace
  // (--no-workspace), none of its own tools at all: only ours.
  const tools = options.tools.filter((tool) =>
    workspace === null ? isRuntimeTool(tool) : writable || !WRITING_TOOLS.has(tool),
  );
  const policy: PolicyConfig = { ...policyConfig(args), tools: [...tools] };
  const { runtime, close: closeRuntime } = openRuntime(
    args,
    deps,
    io,
    workspace === undefined ? {} : { workspace },
    { confirm: broker.confirm, tools, workspaceTools: false },
  );
  let serving: { close(): Promise<void> } | undefined;
  let session: CliAgentSession | undefined;
  const close = async () => {
    await session?.close();
    await serving?.close();
    await closeRuntime();
  };
  try {
    const agent = runtime.loadAgent(name, {
      bases: options.bases,
      ...options.overrides,
      ...catalogBudget(args),
    });
    const { plan } = agent;
    if (acpCommand !== undefined && plan.provider !== 'acp')
      throw new UsageError('--acp-command goes with --provider acp');
    const cursorPrint = args.options['cursor-print'] === true;
    if (cursorPrint && plan.provider !== 'cursor')
      throw new UsageError('--cursor-print goes with --provider cursor');
    // Refused (CLI_AGENT_MODE_UNSAFE) unless no question would be left to ask.
    const printWarning = cursorPrint
      ? cursorPrintWarning(policy, { approveAll: args.options.yes === true })
      : undefined;
    if (resumed !== undefined && resumed.provider !== plan.provider)
      throw new UsageError(
        `session ${resumed.id} ran with the provider ${resumed.provider}, not ${plan.provider}`,
      );
    if (resumed !== undefined && resumed.agentSession === undefined)
      throw new UsageError(
        `session ${resumed.id} has no session of ${plan.provider} to continue (it ended before the agent started one)`,
      );
    const cwd = workspace?.path ?? deps.cwd;
    const env = agentEnv(deps);
    const flags = claudePermissionFlags(policy, MCP_SERVER_NAME);
    const driver = createCliAgentDriver({
      provider: plan.provider,
      env,
      cwd,
      policy,
      clientVersion: VERSION,
      ...(acpCommand === undefined ? {} : { acpCommand }),
      ...(cursorPrint ? { cursorPrint } : {}),
      claude: {
        builtinTools: claudeBuiltinTools(tools),
        allowedTools: flags.allowed,
        disallowedTools: flags.disallowed,
      },
    });
    const version = await driver.probe();
    if (printWarning !== undefined)
      onEvent({ type: 'warning', code: 'CLI_AGENT_MODE_UNSAFE', message: printWarning });

    const context = new ContextManager({
      ...(agent.contextBudget === undefined ? {} : { contextBudget: agent.contextBudget }),
      ledger: SkillLedger.restore(resumed?.ledger),
      onLedger: (record) => log({ type: 'ledger', ...record }),
    });
    // Our tools, from this process: the same runtime, policy, broker and audit trail as the
    // agent's own tools; the server checks the policy again on every call.
    const secret = `${randomId()}${randomId()}`.replace(/-/g, '');
    const { serveHttp } = await import('../../adapters/mcp/index.js');
    const http = await serveHttp(ledgerRuntime(runtime, context, onEvent), {
      port: 0,
      host: '127.0.0.1',
      bearerToken: secret,
      version: VERSION,
      onError: (error) =>
        onEvent({
          type: 'warning',
          code: 'CLI_AGENT_FAILED',
          message: `skillhost's MCP server: ${(error as Error).message ?? String(error)}`,
        }),
    });
    serving = http;

    // The model only when one was chosen; otherwise the agent's own default, as it reports it.
    const chosenModel = plan.modelFrom === 'default' || plan.model === '' ? undefined : plan.model;
    let reported: string | undefined;
    let loggedAgentSession = resumed?.agentSession;
    if (resumed === undefined)
      log({
        type: 'session',
        v: EVENT_SCHEMA_VERSION,
        id: sessionId,
        agent: name,
        provider: plan.provider,
        model: chosenModel ?? '',
        fallback: null,
        created: deps.now().toISOString(),
        workspace: workspace?.path ?? null,
        agentVersion: version.version,
      });
    else
      log({
        type: 'resume',
        time: deps.now().toISOString(),
        provider: plan.provider,
        model: chosenModel ?? '',
      });
    log(catalogRecord(agent, deps.hash, deps.now().toISOString()));

    /** Set when the turn was stopped by skillhost rather than by the agent or the user. */
    let stoppedFor: 'wall-time' | 'no-terminal' | undefined;
    const base = policyPermissions({
      authorize: (request) => runtime.authorize(request),
      confirm: broker.confirm,
      beginCall: (id) => broker.beginCall(id),
      ...(workspace?.path === undefined ? {} : { workspace: workspace.path }),
    });
    const permissions: CliPermissionHandler = async (request) => {
      const tool = request.request?.tool;
      if (tool !== undefined && WRITING_TOOLS.has(tool) && !writable)
        return {
          behavior: 'deny',
          rule: 'workspace',
          reason: 'the workspace is read-only (--workspace-writable makes it writable)',
        };
      const decision = await base(request);
      if (broker.quit) session?.cancel();
      return decision;
    };
    const system = agentSystemPrompt({
      instructions: agent.instructions,
      skills: agent.skills.map((skill) => ({
        name: skill.name,
        directory: skill.directory,
        body: skill.body,
      })),
      catalog: agent.catalog,
    });
    session = await driver.start({
      system,
      cwd,
      env,
      mcpServer: {
        transport: 'http',
        name: MCP_SERVER_NAME,
        url: http.url,
        headers: { Authorization: `Bearer ${secret}` },
      },
      permissions,
      ...(chosenModel === undefined ? {} : { model: chosenModel }),
      ...(resumed?.agentSession === undefined ? {} : { resume: resumed.agentSession }),
      ...(workspace === undefined || workspace === null
        ? {}
        : { workspace: { path: workspace.path, writable } }),
      ...(options.maxSteps === undefined ? {} : { maxTurns: options.maxSteps }),
      // After the agent compacted its conversation, or on resume: the skills state of the ledger.
      onSessionStart: (info) => context.sessionStart(info.source, onEvent),
    });
    const running = session;
    const models = (): SessionModel[] => [
      { provider: plan.provider, model: reported ?? running.model ?? chosenModel ?? 'default' },
    ];
    const activeSkills = () => context.ledger.entries().map((entry) => entry.name);

    const see = (event: LoopEvent) => {
      if (event.type === 'start') {
        reported = event.model === '' ? reported : event.model;
        // Kept as soon as the agent says it, so that a run stopped mid-turn can be resumed.
        if (event.agentSession !== undefined && event.agentSession !== loggedAgentSession) {
          loggedAgentSession = event.agentSession;
          log({ type: 'agent-session', id: event.agentSession, model: reported ?? null });
        }
      }
      if (event.type === 'approval-decision' && event.by === 'no-terminal') {
        stoppedFor ??= 'no-terminal';
        running.cancel();
      }
      if (event.type === 'compaction')
        runtime.recordAgentEvent({
          event: 'context-compact',
          details: {
            session: sessionId,
            provider: plan.provider,
            trigger: event.trigger,
            agent_trigger: event.agentTrigger ?? null,
            pre_tokens: event.preTokens,
            post_tokens: event.postTokens,
          },
        });
    };
    /** Hears the events of a turn run for a command (`/compact`). */
    let onEventHook: ((event: LoopEvent) => void) | undefined;
    basics.listen((event) => {
      see(event);
      onEventHook?.(event);
    });

    const turn = async (task: string | undefined, signal: AbortSignal): Promise<SessionTurnEnd> => {
      if (task === undefined)
        throw new UsageError(
          `give the next task: ${plan.provider} keeps the conversation itself and goes on from its last answer`,
        );
      basics.setTurnSignal(signal);
      stoppedFor = undefined;
      const message = { role: 'user' as const, content: task };
      log({ type: 'message', message });
      runtime.recordAgentEvent({
        event: 'agent-start',
        details: {
          agent: name,
          session: sessionId,
          provider: plan.provider,
          model: models()[0]?.model ?? '',
          fallback: null,
          resumed: resumed !== undefined,
          agent_session: running.agentSession ?? resumed?.agentSession ?? null,
        },
      });
      const onAbort = () => running.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      const timer =
        options.timeout === undefined
          ? undefined
          : setTimeout(() => {
              stoppedFor ??= 'wall-time';
              running.cancel();
            }, options.timeout * 1000);
      let end: Extract<LoopEvent, { type: 'end' }> | undefined;
      try {
        // Interrupted before it began: the message is not sent.
        if (signal.aborted)
          end = {
            type: 'end',
            status: 'interrupted',
            limit: null,
            code: 'AGENT_INTERRUPTED',
            reason: 'interrupted before the turn began',
            steps: 0,
            usage: ZERO_USAGE,
            text: '',
          };
        else
          for await (const event of runCliTurn(running, task)) {
            if (event.type === 'end') end = event;
            else onEvent(event);
          }
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      }
      let result = end ?? {
        type: 'end' as const,
        status: 'failed' as const,
        limit: null,
        code: 'CLI_AGENT_FAILED' as const,
        reason: `${plan.provider} ended the session before the turn ended`,
        steps: 0,
        usage: ZERO_USAGE,
        text: '',
      };
      if (stoppedFor === 'wall-time' && result.status === 'interrupted')
        result = {
          ...result,
          status: 'limit',
          limit: 'wall-time',
          code: 'AGENT_LIMIT_REACHED',
          reason: `the run took longer than --timeout ${options.timeout} s`,
        };
      else if (stoppedFor === 'no-terminal' && result.status !== 'failed')
        result = {
          ...result,
          status: 'refused',
          code: 'PERMISSION_REQUIRED',
          reason:
            'a call needs your approval and there is no terminal to ask: pass --yes or --allow ENTRY',
        };
      else if (broker.quit && result.status !== 'failed')
        result = { ...result, status: 'interrupted', code: 'AGENT_INTERRUPTED' };
      onEvent(result);
      if (result.text !== '')
        log({ type: 'message', message: { role: 'assistant', content: result.text } });
      const agentSession = running.agentSession;
      if (agentSession !== undefined && agentSession !== loggedAgentSession) {
        loggedAgentSession = agentSession;
        log({ type: 'agent-session', id: agentSession, model: reported ?? null });
      }
      log({ type: 'skills', active: activeSkills() });
      runtime.recordAgentEvent({
        event: 'agent-end',
        details: {
          session: sessionId,
          status: result.status,
          limit: result.limit,
          code: result.code,
          steps: result.steps,
          input_tokens: result.usage.inputTokens,
          output_tokens: result.usage.outputTokens,
          agent_session: agentSession ?? null,
        },
      });
      const { type: _type, ...fields } = result;
      return { ...fields, model: models()[0] as SessionModel };
    };

    const compact = async (signal: AbortSignal): Promise<CompactionOutcome> => {
      if (plan.provider !== 'claude')
        throw new SkillhostError(
          'USAGE',
          `${plan.provider} compacts its conversation itself; skillhost cannot ask it to`,
        );
      let event: Extract<LoopEvent, { type: 'compaction' }> | undefined;
      const listen = (seen: LoopEvent) => {
        if (seen.type === 'compaction') event = seen;
      };
      const before = onEventHook;
      onEventHook = listen;
      try {
        await turn('/compact', signal);
      } finally {
        onEventHook = before;
      }
      const done = event ?? {
        type: 'compaction' as const,
        trigger: 'agent' as const,
        preTokens: null,
        postTokens: null,
      };
      return { messages: [], event: done, skills: undefined, changed: event !== undefined };
    };

    return {
      id: sessionId,
      name,
      runtime,
      agent,
      broker,
      view: basics.view,
      get models() {
        return models();
      },
      history: [],
      log,
      turn,
      setModel: () => {
        throw new SkillhostError(
          'USAGE',
          `${plan.provider} keeps the model it started with: start again with --model`,
        );
      },
      context,
      compact,
      activeSkills,
      write: basics.write,
      redact: basics.redact,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
