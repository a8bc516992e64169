import {
  API_PROVIDERS,
  ApprovalBroker,
  type ApprovalDecision,
  type ApprovalRequest,
  agentSystemPrompt,
  canonicalJson,
  EVENT_SCHEMA_VERSION,
  isApiProvider,
  type LoopEvent,
  type LoopStatus,
  type ModelHandle,
  modelHandle,
  runAgentLoop,
} from '../../internal.js';
import { SkillhostError, type SkillRuntime } from '../../node/index.js';
import { type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CliDeps, CliIO, SessionFiles } from '../io.js';
import { printable } from '../printable.js';
import { skillhostHome } from '../registry-options.js';
import { openRuntime } from '../runtime-options.js';
import { AGENT_OPTIONS, agentBases } from './agent.js';
import { readSession, type SessionState, sessionStore } from './session-log.js';

export const RUN_OPTIONS = {
  ...AGENT_OPTIONS,
  'base-url': { type: 'string' },
  'max-steps': { type: 'string' },
  'max-output-tokens': { type: 'string' },
  timeout: { type: 'string' },
  workspace: { type: 'string' },
  'workspace-writable': { type: 'boolean' },
  yes: { type: 'boolean' },
  allow: { type: 'string', multiple: true },
  resume: { type: 'string' },
} as const;

/** Exit codes by how the run ended. */
export const EXIT_CODES: Readonly<Record<LoopStatus, number>> = {
  done: 0,
  failed: 1,
  refused: 3,
  limit: 4,
  interrupted: 130,
};

const MAX_TASK_BYTES = 1024 * 1024;
/** A key as a provider quotes it in an error, its middle masked with asterisks. */
const MASKED_KEY = /[A-Za-z0-9_-]{2,}\*{3,}[A-Za-z0-9_-]{0,12}/g;

function positive(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9]\d{0,8}$/.test(text))
    throw new UsageError(`option '--${name}' needs a positive whole number, got '${text}'`);
  return Number(text);
}

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

/** Replaces each secret with [redacted] in a text. */
function redactor(secrets: readonly string[]): (text: string) => string {
  const kept = secrets.filter((secret) => secret.length >= 8);
  if (kept.length === 0) return (text) => text;
  return (text) => kept.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** One line per tool call: `▸ name arg arg … ok 1.2 KB`. */
function callLine(name: string, input: unknown): string {
  const values =
    input !== null && typeof input === 'object'
      ? Object.values(input as Record<string, unknown>).map((value) =>
          typeof value === 'string' ? value : JSON.stringify(value),
        )
      : [];
  const shown = values.join(' ');
  return `▸ ${name}${shown === '' ? '' : ` ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`}`;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The terminal prompt: one request at a time; yes once, for this session, no (with a reason), view, quit. */
function terminalAsker(
  io: CliIO,
): ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined {
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true) return undefined;
  let queue = Promise.resolve();
  return (request) => {
    const asked = queue.then(async (): Promise<ApprovalDecision> => {
      io.stderr.write(
        `\n? ${printable(request.summary)}\n  ${printable(String((request.question as { reason?: string }).reason ?? ''))}\n`,
      );
      while (true) {
        io.stderr.write(
          '  [y]es once / [s]ession: always for this session / [n]o / [v]iew the input / [q]uit: ',
        );
        const answer = (await input.readLine())?.trim().toLowerCase();
        if (answer === undefined) return { decision: 'denied', reason: 'no answer' };
        if (answer === 'y' || answer === 'yes') return { decision: 'once' };
        if (answer === 's' || answer === 'session') return { decision: 'session' };
        if (answer === 'q' || answer === 'quit') return { decision: 'quit' };
        if (answer === 'v' || answer === 'view') {
          io.stderr.write(
            `${printable(JSON.stringify(JSON.parse(canonicalJson(request.question)), null, 2))}\n  input sha256 ${request.inputHash}\n`,
          );
          continue;
        }
        if (answer === 'n' || answer === 'no') {
          io.stderr.write('  Reason, for the model (optional): ');
          const reason = (await input.readLine())?.trim() ?? '';
          return reason === '' ? { decision: 'denied' } : { decision: 'denied', reason };
        }
      }
    });
    queue = asked.then(
      () => undefined,
      () => undefined,
    );
    return asked;
  };
}

async function readTask(io: CliIO, given: string | undefined): Promise<string | undefined> {
  if (given !== undefined) return given;
  const input = io.stdin;
  if (input === undefined || input.isTTY === true || input.readAll === undefined) return undefined;
  const text = await input.readAll(MAX_TASK_BYTES);
  return text.trim() === '' ? undefined : text.trim();
}

/** `skillhost agent run NAME [TASK]`: one task, to the end. */
export async function runAgentCommand(
  argv: readonly string[],
  io: CliIO,
  deps: CliDeps,
): Promise<number> {
  const args = parseArgs(argv, RUN_OPTIONS);
  const [name, taskArgument, ...extra] = args.positionals;
  if (name === undefined || extra.length > 0)
    throw new UsageError('usage: skillhost agent run NAME [TASK] [options]');
  if (args.options.yes === true && args.options.allow !== undefined)
    throw new UsageError('--yes approves every call already; --allow would add nothing');
  const json = args.options.json === true;
  const maxSteps = positive(args.options['max-steps'], 'max-steps');
  const maxOutputTokens = positive(args.options['max-output-tokens'], 'max-output-tokens');
  const timeout = positive(args.options.timeout, 'timeout');
  const store: SessionFiles | undefined = sessionStore(deps);

  // A resumed session: its history, its active skills, the grants given for it.
  const resumeId = args.options.resume === undefined ? undefined : String(args.options.resume);
  let resumed: SessionState | undefined;
  if (resumeId !== undefined) {
    if (store === undefined) throw new UsageError('sessions are not kept here');
    resumed = readSession(store, resumeId);
    if (resumed.agent !== name)
      throw new UsageError(`session ${resumeId} is of agent '${resumed.agent}', not '${name}'`);
  }
  const task = await readTask(io, taskArgument);
  if (
    task === undefined &&
    (resumed === undefined || resumed.messages.at(-1)?.role === 'assistant')
  )
    throw new UsageError('give the task as an argument or on standard input');

  const sessionId = resumeId ?? deps.newSessionId();
  // Plan first, so a provider that cannot run is reported before anything opens.
  let secrets: string[] = [];
  let redact = (text: string) => text;
  let seq = 0;
  const sessionLines: string[] = [];
  const log = (record: Record<string, unknown>) => {
    const line = redact(JSON.stringify(record));
    if (store === undefined) return;
    sessionLines.push(line);
    store.append(sessionId, [line]);
  };
  const write = (stream: CliIO['stdout'], text: string) => stream.write(redact(text));
  let streamingText = false;
  let approvalNote = '';
  const onEvent = (event: LoopEvent) => {
    seq += 1;
    const line = {
      v: EVENT_SCHEMA_VERSION,
      session: sessionId,
      seq,
      time: deps.now().toISOString(),
      ...event,
    };
    if (event.type !== 'text' && event.type !== 'reasoning') log({ type: 'event', event: line });
    if (json) {
      write(io.stdout, `${JSON.stringify(line)}\n`);
      return;
    }
    switch (event.type) {
      case 'text':
        streamingText = true;
        write(io.stdout, event.text);
        break;
      case 'tool-call':
        if (streamingText) write(io.stdout, '\n');
        streamingText = false;
        write(io.stderr, `${callLine(event.name, event.input)} … `);
        break;
      case 'tool-result':
        write(
          io.stderr,
          `${event.isError ? `error ${event.code ?? ''}`.trim() : 'ok'} ${size(event.bytes)}${approvalNote}\n`,
        );
        approvalNote = '';
        break;
      case 'retry':
        write(
          io.stderr,
          `\n↻ ${event.code}: ${event.message}; retrying in ${(event.delayMs / 1000).toFixed(1)} s\n`,
        );
        break;
      case 'model-switch':
        write(
          io.stderr,
          `\n⇄ ${event.from} failed (${event.code}: ${event.message}); switching to ${event.to}\n`,
        );
        break;
      case 'approval-decision':
        // Said on the call's own line: approved once by a flag, or by the session's grant.
        if (event.by !== 'user')
          approvalNote = ` (${event.decision === 'denied' ? 'denied: no terminal' : event.by === 'flag' ? 'approved by --yes/--allow' : 'approved for this session'})`;
        break;
      default:
        break;
    }
  };

  const broker = new ApprovalBroker({
    hash: deps.hash,
    ...(json
      ? {}
      : (() => {
          const ask = terminalAsker(io);
          return ask === undefined ? {} : { ask };
        })()),
    ...(args.options.yes === true ? { yes: true } : {}),
    allow: (args.options.allow as readonly string[] | undefined) ?? [],
    sessionGrants: resumed?.grants ?? [],
    onRequest: (request) =>
      onEvent({
        type: 'approval-request',
        id: request.id,
        toolCallId: request.toolCallId,
        inputHash: request.inputHash,
        kind: request.question.kind,
        summary: request.summary,
        question: request.question,
      }),
    onDecision: (request, decision, by) =>
      onEvent({
        type: 'approval-decision',
        id: request.id,
        inputHash: request.inputHash,
        decision: decision.decision,
        by,
        reason: decision.decision === 'denied' ? (decision.reason ?? null) : null,
      }),
    onSessionGrant: (key) => log({ type: 'grant', key }),
  });

  const workspace =
    args.options.workspace === undefined
      ? undefined
      : {
          path: deps.resolvePath(deps.cwd, String(args.options.workspace)),
          writable: args.options['workspace-writable'] === true,
        };
  const { runtime, close } = openRuntime(
    args,
    deps,
    io,
    workspace === undefined ? {} : { workspace },
    { confirm: broker.confirm },
  );
  try {
    const agent = runtime.loadAgent(name, {
      bases: agentBases(args, deps),
      ...(args.options.model === undefined ? {} : { model: String(args.options.model) }),
      ...(args.options.provider === undefined ? {} : { provider: String(args.options.provider) }),
    });
    const { plan } = agent;
    if (!isApiProvider(plan.provider)) {
      throw new SkillhostError(
        'MODEL_PROVIDER_CLI',
        `The provider ${plan.provider} (${plan.providerFrom}) is a command-line agent, which agent run does not drive yet; choose a model API: ${API_PROVIDERS.map((provider) => `--provider ${provider}`).join(', ')} (anthropic: ANTHROPIC_API_KEY; openai: OPENAI_API_KEY; openai-compatible: --base-url of a local server)`,
      );
    }
    const key = apiKey(plan.provider, deps);
    secrets = key === undefined ? [] : [key];
    redact = redactor(secrets);
    const connection = {
      provider: plan.provider,
      ...(key === undefined ? {} : { apiKey: key }),
      ...(() => {
        const url = baseUrl(plan.provider, args, deps);
        return url === undefined ? {} : { baseURL: url };
      })(),
    };
    const models: ModelHandle[] = [modelHandle(connection, plan.model)];
    if (plan.fallback !== undefined) models.push(modelHandle(connection, plan.fallback));

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
      await restoreSkills(runtime, resumed.activeSkills);
    }
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
        model: plan.model,
        fallback: plan.fallback ?? null,
        resumed: resumed !== undefined,
      },
    });
    const controller = new AbortController();
    const unsubscribe = deps.onInterrupt?.(() => controller.abort());
    const end = await (async () => {
      try {
        return await runAgentLoop({
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
          onMessage: (message) => log({ type: 'message', message }),
          approvals: broker,
          signal: controller.signal,
          audit: (record) => runtime.recordAgentEvent(record),
          // A provider's error may quote the key masked (sk-ab…***…wxyz): that goes too.
          redact: (text) => redact(text).replace(MASKED_KEY, '[redacted]'),
        });
      } finally {
        unsubscribe?.();
      }
    })();
    const preloaded = new Set(agent.skills.map((skill) => skill.name));
    const active = runtime
      .offered()
      .filter((entry) => !preloaded.has(entry.name) && runtime.isActive(entry.name))
      .map((entry) => entry.name);
    log({ type: 'skills', active });
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
    if (!json) {
      if (streamingText || end.text !== '')
        write(io.stdout, streamingText ? '\n' : `${end.text}\n`);
      const usage = end.usage;
      const cache = usage.cacheReadTokens > 0 ? ` · cache read ${usage.cacheReadTokens}` : '';
      const line = `── ${end.status}${end.limit === null ? '' : ` (${end.limit})`} · ${end.steps} step${end.steps === 1 ? '' : 's'} · ${usage.inputTokens} in / ${usage.outputTokens} out tokens${cache} · ${end.model.provider} ${end.model.model} · session ${sessionId}`;
      write(io.stderr, `${line}\n`);
      if (end.reason !== null && end.status !== 'done')
        write(io.stderr, `skillhost: ${end.code === null ? '' : `${end.code}: `}${end.reason}\n`);
      if (end.status === 'interrupted' || end.status === 'limit')
        write(
          io.stderr,
          `Continue with: skillhost agent run ${name} --resume ${sessionId} [TASK]\n`,
        );
    }
    return EXIT_CODES[end.status];
  } catch (error) {
    if (
      SkillhostError.isInstance(error) &&
      (error.code === 'PERMISSION_DENIED' || error.code === 'PERMISSION_REQUIRED')
    ) {
      write(io.stderr, `skillhost: error ${error.code}: ${error.message}\n`);
      return 3;
    }
    if (SkillhostError.isInstance(error))
      throw new SkillhostError(error.code, redact(error.message), {
        diagnostics: error.diagnostics,
      });
    throw error;
  } finally {
    await close();
  }
}

/** Activates again the skills a resumed session had activated (the grants given for it answer their approvals). */
async function restoreSkills(runtime: SkillRuntime, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const entry = runtime.resolve(name);
    if (entry === undefined) continue;
    try {
      if (entry.source.trust === 'trusted') runtime.activate(name, { triggeredBy: 'user' });
      else await runtime.requestActivation(name, { triggeredBy: 'model' });
    } catch {
      // A skill that cannot be activated now is left out; the model can ask for it again.
    }
  }
}
