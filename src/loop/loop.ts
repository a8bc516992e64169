import type { JSONSchema7, LanguageModelUsage, ModelMessage, SystemModelMessage, Tool } from 'ai';
import type { Code } from '../codes.js';
import { estimateTokens } from '../format/body.js';
import type { ToolCallResult, ToolDefinition } from '../runtime/tools.js';
import type { SkillRuntime } from '../runtime/types.js';
import {
  addUsage,
  type LoopEvent,
  type LoopLimit,
  type LoopStatus,
  type LoopUsage,
  ZERO_USAGE,
} from './events.js';
import type { ModelHandle } from './providers.js';
import {
  abortableSleep,
  classifyFailure,
  isRetryable,
  type ModelFailure,
  retryDelay,
  warrantsFallback,
} from './retry.js';

/** What the loop needs of a runtime: its tools, a way to call them, and the end of a turn. */
export type LoopRuntime = Pick<SkillRuntime, 'tools' | 'callTool' | 'endTurn'>;

/** What the loop needs of the approval broker: to tie requests to calls, and how it ended. */
export interface LoopApprovals {
  beginCall(toolCallId: string | null): void;
  takeNotes(): string[];
  readonly quit: boolean;
  readonly deniedWithoutTerminal: boolean;
}

export interface LoopLimits {
  /** Most model requests in the run (default 50). */
  readonly maxSteps?: number;
  /** Most output tokens in the run, all steps together (default: the provider's per request). */
  readonly maxOutputTokens?: number;
  /** Most wall time of the run, model and tools together (default: none). */
  readonly wallTimeMs?: number;
  /** The agent's context_budget: the request (system, tools, history) must fit before it is sent. */
  readonly contextBudget?: number;
  /** Retries of one request (default 3). */
  readonly maxRetries?: number;
  /** The longest wait a retry may take; a longer retry-after goes to the fallback (default 60 s). */
  readonly maxRetryWaitMs?: number;
}

/** A record for the audit trail: each model request and each switch to the fallback. */
export interface ModelAuditEvent {
  readonly event: 'model-request' | 'model-switch';
  readonly details: Readonly<Record<string, unknown>>;
}

export interface AgentLoopOptions {
  readonly runtime: LoopRuntime;
  /** The model first, then its fallback; the loop moves on only for failures that warrant it. */
  readonly models: readonly ModelHandle[];
  /** The system prompt: sent byte for byte the same at every step. */
  readonly system: string;
  /** The conversation so far, ending with the user's message (or a resumed history). */
  readonly messages: readonly ModelMessage[];
  readonly limits?: LoopLimits;
  readonly onEvent?: (event: LoopEvent) => void;
  /** Hears each message added to the history, in order (a session log appends them). */
  readonly onMessage?: (message: ModelMessage) => void;
  readonly approvals?: LoopApprovals;
  readonly signal?: AbortSignal;
  /** Counts tokens for the context budget (default: an estimate, characters / 4). */
  readonly countTokens?: (text: string) => number;
  /** Writes a model request or a model switch to the audit trail. */
  readonly audit?: (record: ModelAuditEvent) => void;
  /** Removes secrets from any text that leaves the loop (errors from a provider). */
  readonly redact?: (text: string) => string;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly random?: () => number;
}

/** How a run ended, with the whole history (to continue it, or to save it). */
export interface AgentLoopResult {
  readonly status: LoopStatus;
  readonly limit: LoopLimit | null;
  readonly code: Code | null;
  readonly reason: string | null;
  readonly steps: number;
  readonly usage: LoopUsage;
  /** The last answer's text. */
  readonly text: string;
  readonly messages: ModelMessage[];
  /** The model that answered last (the fallback after a switch). */
  readonly model: ModelHandle;
}

interface StepCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly invalid: boolean;
  readonly error?: string;
}

interface StepOutcome {
  readonly assistant: ModelMessage[];
  readonly calls: StepCall[];
  readonly text: string;
  readonly finishReason: string;
  readonly rawFinishReason: string | undefined;
  readonly usage: LoopUsage;
}

type AiModule = typeof import('ai');
let aiModule: Promise<AiModule> | undefined;
/** The AI SDK, loaded on the first model call. */
function loadAi(): Promise<AiModule> {
  aiModule ??= import('ai');
  return aiModule;
}

const EVENT_TEXT = 2000;
const ANTHROPIC_CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

function usageOf(usage: LanguageModelUsage | undefined): LoopUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}

function toJsonSchema7(definition: ToolDefinition): JSONSchema7 {
  return {
    type: 'object',
    properties: { ...definition.inputSchema.properties } as JSONSchema7['properties'],
    required: [...definition.inputSchema.required],
    additionalProperties: false,
  };
}

/** The tools as the AI SDK takes them: no `execute`, so the loop runs every call itself. */
function sdkTools(ai: AiModule, definitions: readonly ToolDefinition[]): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  definitions.forEach((definition, index) => {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: ai.jsonSchema(toJsonSchema7(definition)),
      // The prompt cache's second breakpoint: everything up to the last tool.
      ...(index === definitions.length - 1 ? { providerOptions: ANTHROPIC_CACHE } : {}),
    } as Tool;
  });
  return tools;
}

/**
 * The request's size as the context budget counts it: system, tools and history. The system and
 * the tools are fixed for a run and each message never changes once added, so each is counted
 * once (a long run does not count its whole history again at every step).
 */
function requestCounter(
  count: (text: string) => number,
  system: string,
  tools: readonly ToolDefinition[],
): (messages: readonly ModelMessage[]) => number {
  const fixed = count(system) + count(JSON.stringify(tools));
  const counted = new WeakMap<object, number>();
  return (messages) => {
    let total = fixed;
    for (const message of messages) {
      let size = counted.get(message);
      if (size === undefined) {
        size = count(JSON.stringify(message));
        counted.set(message, size);
      }
      total += size;
    }
    return total;
  };
}

function cut(text: string, max = EVENT_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function bytesOf(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Runs an agent on one turn: calls the model one step at a time with the runtime's tools (which
 * have no `execute`: every call goes through `runtime.callTool`, so its schema check, the
 * policy, the approval and the audit trail apply), gives every tool call a result, and stops
 * when the model answers, a limit is reached, a request fails for good, or the signal aborts.
 * Requests are retried with backoff (honouring retry-after); the fallback model takes over on
 * the failures that warrant it, each switch an event and an audit record.
 *
 * @example const end = await runAgentLoop({ runtime, models: [modelHandle(connection, 'claude-sonnet-4-5')], system, messages: [{ role: 'user', content: task }] });
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { runtime, system, limits = {} } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const redact = options.redact ?? ((text: string) => text);
  const count = options.countTokens ?? estimateTokens;
  const emit = (event: LoopEvent) => options.onEvent?.(event);
  const maxSteps = limits.maxSteps ?? 50;
  const maxRetries = limits.maxRetries ?? 3;
  const maxRetryWait = limits.maxRetryWaitMs ?? 60_000;
  const messages: ModelMessage[] = [...options.messages];
  const push = (message: ModelMessage) => {
    messages.push(message);
    options.onMessage?.(message);
  };
  let modelIndex = 0;
  const first = options.models[0];
  if (first === undefined) throw new Error('runAgentLoop needs a model');
  let usage = ZERO_USAGE;
  let steps = 0;
  let lastText = '';

  // One controller per run: the caller's signal and the wall-time limit both abort it.
  const controller = new AbortController();
  let wallTimeHit = false;
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const wallTimer =
    limits.wallTimeMs === undefined
      ? undefined
      : setTimeout(
          () => {
            wallTimeHit = true;
            controller.abort();
          },
          Math.max(0, limits.wallTimeMs),
        );
  const signal = controller.signal;

  const definitions = runtime.tools();
  let requestSize: ((messages: readonly ModelMessage[]) => number) | undefined;
  const end = (
    status: LoopStatus,
    extra: { limit?: LoopLimit; code?: Code; reason?: string } = {},
  ): AgentLoopResult => {
    if (wallTimer !== undefined) clearTimeout(wallTimer);
    options.signal?.removeEventListener('abort', onAbort);
    runtime.endTurn();
    const result: AgentLoopResult = {
      status,
      limit: extra.limit ?? null,
      code: extra.code ?? null,
      reason: extra.reason === undefined ? null : redact(extra.reason),
      steps,
      usage,
      text: lastText,
      messages,
      model: options.models[modelIndex] ?? first,
    };
    emit({
      type: 'end',
      status,
      limit: result.limit,
      code: result.code,
      reason: result.reason,
      steps,
      usage,
      text: lastText,
    });
    return result;
  };
  const stopped = (): AgentLoopResult | undefined => {
    if (wallTimeHit)
      return end('limit', {
        limit: 'wall-time',
        code: 'AGENT_LIMIT_REACHED',
        reason: `The run passed its wall-time limit of ${limits.wallTimeMs} ms`,
      });
    if (signal.aborted)
      return end('interrupted', { code: 'AGENT_INTERRUPTED', reason: 'Interrupted' });
    return undefined;
  };

  const model = () => options.models[modelIndex] ?? first;
  emit({
    type: 'start',
    provider: first.provider,
    model: first.model,
    fallback: options.models[1]?.model ?? null,
    tools: definitions.map((definition) => definition.name),
  });

  let ai: AiModule;
  let tools: Record<string, Tool>;
  const systemMessage: SystemModelMessage = {
    role: 'system',
    content: system,
    // The prompt cache's first breakpoint: the system prompt, identical at every step.
    providerOptions: ANTHROPIC_CACHE,
  };

  while (true) {
    const halted = stopped();
    if (halted !== undefined) return halted;
    if (steps >= maxSteps)
      return end('limit', {
        limit: 'steps',
        code: 'AGENT_LIMIT_REACHED',
        reason: `The run reached its step limit (${maxSteps} model requests)`,
      });
    if (limits.maxOutputTokens !== undefined && usage.outputTokens >= limits.maxOutputTokens)
      return end('limit', {
        limit: 'output-tokens',
        code: 'AGENT_LIMIT_REACHED',
        reason: `The run used its ${limits.maxOutputTokens} output tokens`,
      });
    if (limits.contextBudget !== undefined) {
      requestSize ??= requestCounter(count, system, definitions);
      const size = requestSize(messages);
      if (size > limits.contextBudget)
        return end('limit', {
          limit: 'context-budget',
          code: 'AGENT_LIMIT_REACHED',
          reason: `The next request needs about ${size} tokens but the agent's context_budget is ${limits.contextBudget}`,
        });
    }
    steps += 1;
    const step = steps;
    emit({ type: 'step', step, provider: model().provider, model: model().model });

    let outcome: StepOutcome | undefined;
    let attempt = 0;
    while (outcome === undefined) {
      let failure: ModelFailure;
      try {
        ai = await loadAi();
        tools = sdkTools(ai, definitions);
        const candidate = await requestStep(ai, {
          model: model(),
          system: systemMessage,
          messages,
          tools,
          signal,
          step,
          emit,
          ...(limits.maxOutputTokens === undefined
            ? {}
            : { maxOutputTokens: limits.maxOutputTokens - usage.outputTokens }),
        });
        if (
          candidate.finishReason === 'content-filter' ||
          candidate.rawFinishReason === 'refusal'
        ) {
          failure = {
            kind: 'refusal',
            code: 'MODEL_REFUSED',
            message: `${model().model} refused to answer${candidate.text === '' ? '' : `: ${cut(candidate.text, 300)}`}`,
          };
        } else {
          outcome = candidate;
          break;
        }
      } catch (error) {
        const halted = stopped();
        if (halted !== undefined) return halted;
        failure = classifyFailure(error, now());
      }
      failure = { ...failure, message: redact(failure.message) };
      attempt += 1;
      const wait = isRetryable(failure) ? retryDelay(failure, attempt, options.random) : undefined;
      if (wait !== undefined && attempt <= maxRetries && wait <= maxRetryWait) {
        emit({
          type: 'retry',
          step,
          attempt,
          delayMs: wait,
          code: failure.code,
          message: failure.message,
        });
        try {
          await sleep(wait, signal);
        } catch {
          return (
            stopped() ?? end('interrupted', { code: 'AGENT_INTERRUPTED', reason: 'Interrupted' })
          );
        }
        continue;
      }
      const next = options.models[modelIndex + 1];
      if (next !== undefined && warrantsFallback(failure)) {
        const from = model();
        emit({
          type: 'model-switch',
          step,
          from: from.model,
          to: next.model,
          code: failure.code,
          message: failure.message,
        });
        options.audit?.({
          event: 'model-switch',
          details: {
            step,
            provider: from.provider,
            from: from.model,
            to: next.model,
            error: { code: failure.code, message: failure.message },
          },
        });
        modelIndex += 1;
        attempt = 0;
        continue;
      }
      emit({ type: 'error', code: failure.code, message: failure.message });
      return end(failure.kind === 'refusal' ? 'failed' : 'failed', {
        code: failure.code,
        reason: `${model().provider} ${model().model}: ${failure.message}`,
      });
    }

    usage = addUsage(usage, outcome.usage);
    emit({
      type: 'usage',
      step,
      usage: outcome.usage,
      finishReason: outcome.rawFinishReason ?? outcome.finishReason,
    });
    options.audit?.({
      event: 'model-request',
      details: {
        step,
        provider: model().provider,
        model: model().model,
        finish_reason: outcome.rawFinishReason ?? outcome.finishReason,
        input_tokens: outcome.usage.inputTokens,
        output_tokens: outcome.usage.outputTokens,
        cache_read_tokens: outcome.usage.cacheReadTokens,
        tool_calls: outcome.calls.map((call) => call.name),
      },
    });
    for (const message of outcome.assistant) push(message);
    if (outcome.text !== '') lastText = outcome.text;

    if (outcome.calls.length > 0) {
      // Output cut at the token limit may have cut a call's input: no call of this step runs.
      const truncated = outcome.finishReason === 'length';
      const results: Array<{ call: StepCall; result: ToolCallResult }> = [];
      for (const call of outcome.calls) {
        emit({ type: 'tool-call', step, id: call.id, name: call.name, input: call.input });
        let result: ToolCallResult;
        if (signal.aborted || options.approvals?.quit === true) {
          result = {
            isError: true,
            code: 'AGENT_INTERRUPTED',
            text: 'Error AGENT_INTERRUPTED: the run was interrupted before this call ran',
          };
        } else if (truncated) {
          result = {
            isError: true,
            code: 'TOOL_INPUT_INVALID',
            text: 'Error TOOL_INPUT_INVALID: your output reached the output-token limit inside this call, so its input may be cut short; it was not run. Send it again, shorter.',
          };
        } else if (call.invalid) {
          result = {
            isError: true,
            code: 'TOOL_INPUT_INVALID',
            text: `Error TOOL_INPUT_INVALID: the call could not be read (${cut(call.error ?? 'its input is not a JSON object', 300)}); it was not run`,
          };
        } else {
          options.approvals?.beginCall(call.id);
          result = await runtime.callTool(call.name, call.input);
          const notes = options.approvals?.takeNotes() ?? [];
          if (notes.length > 0) result = { ...result, text: `${result.text}\n${notes.join('\n')}` };
        }
        results.push({ call, result });
        emit({
          type: 'tool-result',
          step,
          id: call.id,
          name: call.name,
          isError: result.isError,
          code: result.code ?? null,
          bytes: bytesOf(result.text),
          text: cut(result.text),
        });
      }
      push({
        role: 'tool',
        content: results.map(({ call, result }) => ({
          type: 'tool-result',
          toolCallId: call.id,
          toolName: call.name,
          output: result.isError
            ? { type: 'error-text', value: result.text }
            : { type: 'text', value: result.text },
        })),
      });
      if (options.approvals?.quit === true)
        return end('interrupted', {
          code: 'AGENT_INTERRUPTED',
          reason: 'You chose to quit at an approval prompt',
        });
      if (options.approvals?.deniedWithoutTerminal === true)
        return end('refused', {
          code: 'PERMISSION_REQUIRED',
          reason:
            'A call needed approval and there is no terminal to ask: rerun with --yes, or --allow ENTRY for the calls to approve',
        });
      continue;
    }
    if (outcome.rawFinishReason === 'pause_turn') continue;
    if (outcome.finishReason === 'length')
      return end('limit', {
        limit: 'output-tokens',
        code: 'AGENT_LIMIT_REACHED',
        reason: 'The answer was cut at the output-token limit',
      });
    return end('done');
  }
}

/** One model request, streamed: text as it comes, then the calls, the usage and the assistant message. */
async function requestStep(
  ai: AiModule,
  request: {
    readonly model: ModelHandle;
    readonly system: SystemModelMessage;
    readonly messages: readonly ModelMessage[];
    readonly tools: Record<string, Tool>;
    readonly signal: AbortSignal;
    readonly step: number;
    readonly emit: (event: LoopEvent) => void;
    readonly maxOutputTokens?: number;
  },
): Promise<StepOutcome> {
  const language = await request.model.load();
  const result = ai.streamText({
    model: language,
    system: request.system,
    messages: [...request.messages],
    ...(Object.keys(request.tools).length === 0 ? {} : { tools: request.tools }),
    maxRetries: 0,
    abortSignal: request.signal,
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    // Errors are read from the stream; nothing is printed.
    onError: () => {},
  });
  const calls: StepCall[] = [];
  let text = '';
  let finishReason = 'unknown';
  let rawFinishReason: string | undefined;
  let usage = ZERO_USAGE;
  let failure: unknown;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        request.emit({ type: 'text', step: request.step, text: part.text });
        break;
      case 'reasoning-delta':
        request.emit({ type: 'reasoning', step: request.step, text: part.text });
        break;
      case 'tool-call': {
        const call = part as unknown as { invalid?: boolean; error?: unknown };
        calls.push({
          id: part.toolCallId,
          name: part.toolName,
          input: part.input,
          invalid: call.invalid === true,
          ...(call.error === undefined
            ? {}
            : { error: call.error instanceof Error ? call.error.message : String(call.error) }),
        });
        break;
      }
      case 'finish-step':
        finishReason = part.finishReason;
        rawFinishReason = part.rawFinishReason;
        usage = usageOf(part.usage);
        break;
      case 'error':
        failure ??= part.error;
        break;
      case 'abort':
        failure ??= Object.assign(new Error('aborted'), { name: 'AbortError' });
        break;
      default:
        break;
    }
  }
  if (failure !== undefined) throw failure;
  const response = await result.response;
  const assistant = response.messages.filter((message) => message.role === 'assistant');
  return { assistant, calls, text, finishReason, rawFinishReason, usage };
}
