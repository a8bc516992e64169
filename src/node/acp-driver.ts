import { Readable, Writable } from 'node:stream';
import type {
  ClientConnection,
  InitializeResponse,
  McpServer,
  NewSessionResponse,
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { SkillhostError } from '../core.js';
import {
  acpToolRequest,
  type CliAgentDriver,
  type CliAgentSession,
  type CliAgentStartOptions,
  type CliMcpServer,
  type CliPermissionDecision,
  type LoopEvent,
} from '../internal.js';
import { extensionAnswer } from './acp-extensions.js';
import { type WorkspaceFiles, workspaceFiles } from './acp-files.js';
import { AcpStreamReader, classifyAcpFailure } from './acp-stream.js';
import { probeCliAgent, probeOnce } from './cli-probe.js';
import { startCliProcess } from './cli-process.js';
import { CliSessionCore } from './cli-session.js';
import { makePrivateFolder } from './private-files.js';

/**
 * The ACP providers (`cursor`, `gemini`, any agent given with `--acp-command`): the agent started
 * in ACP mode and driven with the official SDK as its client. skillhost initialises, authenticates
 * where the agent asks for it, opens a session with its MCP server in `mcpServers`, sends the
 * agent's instructions with the first prompt (ACP has no system prompt), streams the session's
 * updates as events, answers `session/request_permission` through the permission callback, and
 * every request the agent may send its client: file reads and writes through the workspace
 * rules, terminals refused (the agent runs commands with its own tools, which ask permission),
 * Cursor's blocking extension requests answered, anything else refused, so a session never
 * stalls waiting for skillhost.
 */

type Json = Record<string, unknown>;

export interface AcpAgentSpec {
  readonly provider: string;
  /** What the agent is called in messages (`Gemini CLI`). */
  readonly label: string;
  readonly command: string;
  /** Its arguments for ACP mode (`['acp']`, `['--acp']`), before the model's. */
  readonly args: readonly string[];
  /** The arguments that choose a model, when the agent takes it on its command line. */
  readonly modelArgs?: (model: string) => readonly string[];
  /**
   * More arguments naming settings files the driver writes for the session (in a private
   * folder removed at the end): `write(name, text)` answers the file's path.
   */
  readonly settingsArgs?: (write: (name: string, text: string) => string) => readonly string[];
  readonly installHint: string;
  readonly loginHint: string;
  /** The oldest version driven; undefined: the agent's version is not checked (any ACP agent). */
  readonly minimum?: string;
  /** Arguments before `--version` for the probe (default: none). */
  readonly versionPrefix?: readonly string[];
  /** The auth method to use when the agent asks for one, from those it offers. */
  readonly authMethod?: (
    methods: readonly { readonly id: string }[],
    env: Readonly<Record<string, string>>,
  ) => string | undefined;
  /** Authenticate right after initialize (Cursor's documented flow), not only when asked. */
  readonly authenticateFirst?: boolean;
}

export interface AcpDriverOptions {
  readonly spec: AcpAgentSpec;
  /** The environment of the probe (`start` takes the session's own). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** skillhost's version, as the client tells the agent. */
  readonly clientVersion?: string;
}

/** Modes that would approve tools without asking: never entered. */
const APPROVING_MODE = /yolo|bypass|auto.?(?:edit|approve|accept)|dont.?ask|full.?access/i;

function mcpServerOf(server: CliMcpServer): McpServer {
  return server.transport === 'stdio'
    ? {
        name: server.name,
        command: server.command,
        args: [...server.args],
        env: Object.entries(server.env).map(([name, value]) => ({ name, value })),
      }
    : {
        type: 'http',
        name: server.name,
        url: server.url,
        headers: Object.entries(server.headers ?? {}).map(([name, value]) => ({ name, value })),
      };
}

/** The option of a permission question that carries out a decision; undefined: none fits. */
export function permissionOutcome(
  options: readonly PermissionOption[],
  decision: CliPermissionDecision | undefined,
): RequestPermissionResponse {
  const find = (...kinds: string[]) =>
    kinds
      .map((kind) => options.find((option) => option.kind === kind))
      .find((o) => o !== undefined);
  const option =
    decision === undefined
      ? undefined
      : decision.behavior === 'allow'
        ? decision.scope === 'always'
          ? find('allow_always', 'allow_once')
          : // Never more than was decided: an agent offering only "always" is refused.
            find('allow_once')
        : find('reject_once', 'reject_always');
  return option === undefined
    ? { outcome: { outcome: 'cancelled' } }
    : { outcome: { outcome: 'selected', optionId: option.optionId } };
}

function errorOf(error: unknown): { code?: unknown; message?: unknown; data?: unknown } {
  return error !== null && typeof error === 'object' ? (error as Json) : { message: String(error) };
}

export function createAcpDriver(options: AcpDriverOptions): CliAgentDriver {
  const { spec } = options;
  const minimum = spec.minimum;
  const probe = probeOnce(async () => {
    if (minimum === undefined) return { version: 'unknown', minimum: 'none' };
    return probeCliAgent({
      label: spec.label,
      command: spec.command,
      prefix: spec.versionPrefix ?? [],
      minimum,
      installHint: spec.installHint,
      env: options.env,
      cwd: options.cwd,
    });
  });
  return {
    provider: spec.provider,
    probe,
    start: (start) => startAcpSession(options, start),
  };
}

async function startAcpSession(
  options: AcpDriverOptions,
  start: CliAgentStartOptions,
): Promise<CliAgentSession> {
  const { spec } = options;
  const acp = await import('@agentclientprotocol/sdk');
  const folder =
    spec.settingsArgs === undefined ? undefined : makePrivateFolder(`skillhost-${spec.provider}-`);
  let child: Awaited<ReturnType<typeof startCliProcess>>;
  try {
    const args = [
      ...spec.args,
      ...(folder === undefined || spec.settingsArgs === undefined
        ? []
        : spec.settingsArgs((name, text) => folder.write(name, text))),
      ...(start.model === undefined || spec.modelArgs === undefined
        ? []
        : spec.modelArgs(start.model)),
    ];
    child = await startCliProcess({
      command: spec.command,
      args,
      cwd: start.cwd,
      env: start.env,
      label: spec.label,
      installHint: spec.installHint,
    });
  } catch (error) {
    folder?.remove();
    throw error;
  }
  const core = new CliSessionCore({
    process: child,
    ...(folder === undefined ? {} : { folder }),
    label: spec.label,
    ...(start.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: start.idleTimeoutMs }),
    ...(start.closeGraceMs === undefined ? {} : { graceMs: start.closeGraceMs }),
  });
  const reader = new AcpStreamReader(spec.provider);
  const files: WorkspaceFiles | undefined =
    start.workspace === undefined ? undefined : workspaceFiles(start.workspace);
  const pending = new Set<AbortController>();
  let sessionId: string | undefined;
  let loading = false;
  let model: string | undefined;
  let defaultMode: string | undefined;
  let connection: ClientConnection;
  /** What the model is told with the next message: the skills-state after a compaction or a resume. */
  let pendingContext: Promise<string | undefined> | undefined;
  const refused = (error: unknown) =>
    new acp.RequestError(
      -32602,
      error instanceof Error ? error.message : String(error),
      SkillhostError.isInstance(error) ? { code: error.code } : undefined,
    );

  const ask = async (params: RequestPermissionRequest, signal: AbortSignal) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    pending.add(controller);
    const call = params.toolCall;
    const input = call.rawInput ?? call.content ?? {};
    let decision: CliPermissionDecision | undefined;
    const withdrawn = new Promise<undefined>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    try {
      decision = await core.idle.paused(async () => {
        const asked = start.permissions({
          id: call.toolCallId,
          provider: spec.provider,
          tool: call.title ?? call.name ?? call.toolCallId,
          request: acpToolRequest(call, { server: start.mcpServer.name, cwd: start.cwd }),
          input,
          toolCallId: call.toolCallId,
          title: call.title ?? call.toolCallId,
          scopes: params.options.some((option) => option.kind === 'allow_always')
            ? ['once', 'always']
            : ['once'],
          signal: controller.signal,
        });
        // A withdrawn question is answered at once, whatever the callback does later.
        return Promise.race([asked, withdrawn]);
      });
    } catch (error) {
      decision = {
        behavior: 'deny',
        rule: 'error',
        reason: `the approval failed: ${(error as Error).message}`,
      };
    } finally {
      pending.delete(controller);
      signal.removeEventListener('abort', abort);
    }
    // A question withdrawn meanwhile (the turn was cancelled) is answered "cancelled", as ACP asks.
    return permissionOutcome(params.options, controller.signal.aborted ? undefined : decision);
  };

  /** What a file request may do: the policy decides first, as for the agent's own tools. */
  const allowFile = async (tool: 'read' | 'write', path: string, signal: AbortSignal) => {
    const decision = await core.idle.paused(() =>
      start.permissions({
        id: `fs-${tool}-${path}`,
        provider: spec.provider,
        tool: tool === 'read' ? 'fs/read_text_file' : 'fs/write_text_file',
        request: acpToolRequest(
          { kind: tool === 'read' ? 'read' : 'edit', locations: [{ path }] },
          { server: start.mcpServer.name, cwd: start.cwd },
        ),
        input: { path },
        toolCallId: null,
        title: `${tool} ${path}`,
        scopes: ['once'],
        signal,
      }),
    );
    if (decision.behavior === 'deny')
      throw new acp.RequestError(
        -32602,
        `Denied by skillhost's policy (${decision.rule}): ${decision.reason}`,
      );
  };

  const app = acp
    .client({ name: 'skillhost' })
    .onRequest('session/request_permission', ({ params, signal }) => ask(params, signal))
    .onRequest('fs/read_text_file', async ({ params, signal }) => {
      if (files === undefined) throw refused('skillhost gives agents no files without a workspace');
      await allowFile('read', params.path, signal);
      try {
        return { content: files.read(params.path, params.line, params.limit) };
      } catch (error) {
        throw refused(error);
      }
    })
    .onRequest('fs/write_text_file', async ({ params, signal }) => {
      if (files === undefined) throw refused('skillhost gives agents no files without a workspace');
      await allowFile('write', params.path, signal);
      try {
        files.write(params.path, params.content);
        return {};
      } catch (error) {
        throw refused(error);
      }
    })
    .onRequest('terminal/create', () => {
      throw refused(
        'skillhost does not give agents terminals: run commands with your own shell tool, which asks for permission',
      );
    })
    .onRequest('*', ({ method, params }) => {
      const answer = extensionAnswer(method, params);
      if (answer === undefined) throw acp.RequestError.methodNotFound(method);
      core.emit([{ type: 'warning', code: 'CLI_AGENT_REQUEST_REFUSED', message: answer.note }]);
      return answer.result;
    })
    .onNotification('session/update', ({ params }) => {
      core.heard();
      if (params.sessionId !== sessionId || loading) return;
      const update = params.update as unknown as Json;
      if (update.sessionUpdate === 'current_mode_update') {
        const mode = String(update.currentModeId ?? '');
        if (APPROVING_MODE.test(mode) && defaultMode !== undefined && sessionId !== undefined) {
          core.emit([
            {
              type: 'warning',
              code: 'CLI_AGENT_MODE_UNSAFE',
              message: `${spec.label} switched to the mode ${mode}, which approves tools without asking; skillhost switched it back to ${defaultMode}`,
            },
          ]);
          void connection.agent
            .request('session/set_mode', { sessionId, modeId: defaultMode })
            .catch(() => undefined);
        }
        return;
      }
      const events = reader.read(update);
      core.emit(events);
      if (update.sessionUpdate === 'compaction_update' && update.status === 'completed')
        pendingContext = sessionStartContext('compact');
    })
    .onNotification('*', () => {
      core.heard();
    });

  const sessionStartContext = async (source: 'compact' | 'resume') => {
    try {
      return (await start.onSessionStart?.({ source, agentSession: sessionId })) ?? undefined;
    } catch {
      return undefined;
    }
  };

  connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  void child.exited.then((exit) => {
    for (const controller of pending) controller.abort();
    const tail = child.stderrTail().trim();
    core.exitedUnexpectedly({
      code: 'CLI_AGENT_FAILED',
      message: `${spec.label} exited (${exit.code ?? exit.signal})${tail === '' ? '' : `: ${tail.slice(-500)}`}`,
    });
    connection.close();
  });

  const failStart = async (error: unknown): Promise<never> => {
    await core.close();
    if (SkillhostError.isInstance(error)) throw error;
    const failure = classifyAcpFailure(spec.label, errorOf(error), spec.loginHint);
    throw new SkillhostError(
      failure.code,
      failure.hint === undefined ? failure.message : `${failure.message}; ${failure.hint}`,
    );
  };

  let init: InitializeResponse;
  try {
    init = await connection.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {
        fs: {
          readTextFile: files !== undefined,
          writeTextFile: files !== undefined && start.workspace?.writable === true,
        },
        terminal: false,
      },
      clientInfo: { name: 'skillhost', version: options.clientVersion ?? '0.0.0' },
    });
  } catch (error) {
    return failStart(error);
  }
  const methods = init.authMethods ?? [];
  const authenticate = async () => {
    const method = spec.authMethod?.(methods, start.env) ?? methods[0]?.id;
    if (method === undefined)
      throw new SkillhostError(
        'CLI_AGENT_LOGIN_REQUIRED',
        `${spec.label} asks for a login and offers no way to log in from a client; ${spec.loginHint}`,
      );
    await connection.agent.request('authenticate', { methodId: method });
  };
  const mcpServers = [mcpServerOf(start.mcpServer)];
  const open = async (): Promise<NewSessionResponse> => {
    if (start.resume === undefined)
      return connection.agent.request('session/new', { cwd: start.cwd, mcpServers });
    if (init.agentCapabilities?.loadSession !== true)
      throw new SkillhostError(
        'SESSION_NOT_FOUND',
        `${spec.label} cannot load an earlier session (it does not offer session/load)`,
      );
    // The agent replays the conversation while loading it: not events of this run.
    loading = true;
    sessionId = start.resume;
    try {
      await connection.agent.request('session/load', {
        sessionId: start.resume,
        cwd: start.cwd,
        mcpServers,
      });
      // The replayed updates read before the answer are handled after it (see session/prompt).
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      loading = false;
    }
    return { sessionId: start.resume };
  };
  let opened: NewSessionResponse;
  try {
    if (spec.authenticateFirst === true && methods.length > 0) await authenticate();
    try {
      opened = await open();
    } catch (error) {
      if (errorOf(error).code !== -32000 || spec.authenticateFirst === true) throw error;
      await authenticate();
      opened = await open();
    }
  } catch (error) {
    return failStart(error);
  }
  sessionId = opened.sessionId;
  defaultMode = opened.modes?.currentModeId ?? undefined;
  const models = (opened as unknown as Json).models as
    | { currentModelId?: string; availableModels?: { modelId: string }[] }
    | undefined;
  model = models?.currentModelId ?? start.model;
  if (start.model !== undefined && spec.modelArgs === undefined) {
    const chosen = start.model;
    const choice = opened.configOptions?.find(
      (option) =>
        option.category === 'model' &&
        option.type === 'select' &&
        JSON.stringify(option).includes(JSON.stringify(chosen)),
    );
    try {
      if (models?.availableModels?.some((entry) => entry.modelId === chosen) === true) {
        await connection.agent.request('session/set_model', { sessionId, modelId: chosen });
        model = chosen;
      } else if (choice !== undefined) {
        await connection.agent.request('session/set_config_option', {
          sessionId,
          configId: choice.id,
          value: chosen,
        });
        model = chosen;
      } else {
        core.emit([
          {
            type: 'warning',
            code: 'MODEL_UNKNOWN',
            message: `${spec.label} does not offer the model ${chosen} to clients; it uses ${model ?? 'its own default'}`,
          },
        ]);
      }
    } catch (error) {
      return failStart(error);
    }
  }
  reader.model = model ?? '';
  const startEvent: LoopEvent = {
    type: 'start',
    provider: spec.provider,
    model: model ?? '',
    fallback: null,
    tools: [],
    agentSession: sessionId,
    ...(init.agentInfo?.version === undefined ? {} : { agentVersion: init.agentInfo.version }),
  };
  core.emit([startEvent]);
  if (start.resume !== undefined) pendingContext = sessionStartContext('resume');

  let first = start.resume === undefined;
  core.attach({
    deliver: (message) => {
      reader.beginTurn();
      void (async () => {
        const context = pendingContext === undefined ? undefined : await pendingContext;
        pendingContext = undefined;
        const prompt = [
          ...(first ? [{ type: 'text' as const, text: start.system }] : []),
          ...(context === undefined || context === ''
            ? []
            : [{ type: 'text' as const, text: context }]),
          { type: 'text' as const, text: message },
        ];
        first = false;
        try {
          const response = await connection.agent.request('session/prompt', {
            sessionId: sessionId as string,
            prompt,
          });
          // The SDK hands a response over sooner than the notifications read before it (they pass
          // through its handler chain): once the queued work has run, they all have.
          await new Promise((resolve) => setImmediate(resolve));
          core.emit(reader.finish(response as unknown as Json));
        } catch (error) {
          // A prompt cut short by the agent's exit fails with what the exit says.
          const exited = await Promise.race([
            child.exited,
            new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 250)),
          ]);
          if (core.closed || exited !== undefined) return;
          core.emit(reader.abandon(classifyAcpFailure(spec.label, errorOf(error), spec.loginHint)));
        }
      })();
    },
    interrupt: () => {
      reader.markInterrupted();
      for (const controller of pending) controller.abort();
      void connection.agent
        .notify('session/cancel', { sessionId: sessionId as string })
        .catch(() => undefined);
    },
    abandon: (failure) => reader.abandon(failure),
  });
  return {
    provider: spec.provider,
    events: core.events,
    send: (message) => core.send(message),
    cancel: () => core.cancel(),
    close: async () => {
      for (const controller of pending) controller.abort();
      const exit = await core.close();
      connection.close();
      return exit;
    },
    get agentSession() {
      return sessionId;
    },
    get model() {
      return model;
    },
  };
}
