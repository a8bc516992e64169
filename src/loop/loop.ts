import type { ModelMessage } from 'ai';
import type { Code } from '../codes.js';
import type { ContextLimits, ContextManager, ContextRequest } from '../context/manager.js';
import { TokenMeter } from '../context/meter.js';
import { estimateTokens } from '../format/body.js';
import type { SkillRuntime } from '../runtime/types.js';
import { cut, runStepCalls } from './calls.js';
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
  ANTHROPIC_CACHE,
  modelTools,
  requestStep,
  type StepOutcome,
  warningText,
} from './request.js';
import {
  abortableSleep,
  classifyFailure,
  isRetryable,
  type ModelFailure,
  retryDelay,
  warrantsFallback,
} from './retry.js';
import { modelSummarizer } from './summarize.js';

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
  readonly event: 'model-request' | 'model-switch' | 'context-compact';
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
  /**
   * The context manager (skill ledger, compaction): with it, the request is compacted before it
   * would pass its threshold, and once when the provider says it is too long; every tool call
   * goes through it, so the ledger sees activations and uses.
   */
  readonly context?: ContextManager;
  /** Hears the history replaced by a compaction (the session log records the new one). */
  readonly onHistory?: (messages: readonly ModelMessage[]) => void;
  readonly approvals?: LoopApprovals;
  readonly signal?: AbortSignal;
  /** Counts tokens for the context budget without a context manager (default: the token estimate). */
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
  const { context } = options;
  const meter = context?.meter ?? new TokenMeter(count);
  /** A compaction replaced the history: in place, so that the caller's view follows. */
  const replaceHistory = (next: readonly ModelMessage[]) => {
    messages.splice(0, messages.length, ...next);
    meter.reset();
    options.onHistory?.(messages);
  };
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

  const tools = modelTools(definitions);
  const warned = new Set<string>();
  const systemMessage = {
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
    const outputLeft =
      limits.maxOutputTokens === undefined
        ? undefined
        : limits.maxOutputTokens - usage.outputTokens;
    const contextRequest = (): ContextRequest => ({
      system,
      tools: definitions,
      messages,
      model: model().model,
      ...(outputLeft === undefined ? {} : { maxOutputTokens: outputLeft }),
      summarize: modelSummarizer(model()),
      signal,
      emit,
      ...(options.audit === undefined ? {} : { audit: options.audit }),
    });
    let size: number | undefined;
    let window: ContextLimits | undefined;
    if (context !== undefined) {
      const prepared = await context.prepare(contextRequest());
      const halted = stopped();
      if (halted !== undefined) return halted;
      if (prepared.compaction?.changed === true) replaceHistory(prepared.compaction.messages);
      const failure = prepared.compaction?.failure;
      if (failure !== undefined)
        emit({
          type: 'warning',
          code: failure.code,
          message: redact(`The context could not be summarised: ${failure.message}`),
        });
      size = prepared.tokens;
      window = prepared.limits;
    } else if (limits.contextBudget !== undefined) {
      size = meter.request(system, definitions, messages);
    }
    if (limits.contextBudget !== undefined && size !== undefined && size > limits.contextBudget)
      return end('limit', {
        limit: 'context-budget',
        code: 'AGENT_LIMIT_REACHED',
        reason: `The next request needs about ${size} tokens but the agent's context_budget is ${limits.contextBudget}`,
      });
    steps += 1;
    const step = steps;
    emit({
      type: 'step',
      step,
      provider: model().provider,
      model: model().model,
      ...(size === undefined ? {} : { contextTokens: size }),
      ...(window === undefined
        ? {}
        : { contextWindow: window.contextWindow, compactThreshold: window.threshold }),
    });
    let overflowCompacted = false;

    let outcome: StepOutcome | undefined;
    let attempt = 0;
    while (outcome === undefined) {
      let failure: ModelFailure;
      try {
        const candidate = await requestStep({
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
      if (failure.kind === 'context-overflow') {
        // Too long for the provider: compact once and send again once; then a clear error.
        if (context !== undefined && !overflowCompacted) {
          overflowCompacted = true;
          const compaction = await context.compact({ ...contextRequest(), trigger: 'overflow' });
          const halted = stopped();
          if (halted !== undefined) return halted;
          if (compaction.changed) {
            replaceHistory(compaction.messages);
            emit({
              type: 'retry',
              step,
              attempt: attempt + 1,
              delayMs: 0,
              code: failure.code,
              message: failure.message,
            });
            continue;
          }
        }
        const tokens = meter.request(system, definitions, messages);
        const reason = `${model().provider} ${model().model}: the request is too long for the model (about ${tokens} tokens here${window === undefined ? '' : `; window ${window.contextWindow}`})${overflowCompacted ? ', even after compacting the context once' : ''}: ${failure.message}`;
        emit({ type: 'error', code: 'MODEL_CONTEXT_TOO_LONG', message: reason });
        return end('failed', { code: 'MODEL_CONTEXT_TOO_LONG', reason });
      }
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

    for (const warning of outcome.warnings) {
      const message = redact(`${model().provider} ${model().model}: ${warningText(warning)}`);
      if (warned.has(message)) continue;
      warned.add(message);
      emit({ type: 'warning', code: 'MODEL_SETTING_IGNORED', message });
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
      push(
        await runStepCalls({
          calls: outcome.calls,
          step,
          // Output cut at the token limit may have cut a call's input: no call of this step runs.
          truncated: outcome.finishReason === 'length',
          signal,
          approvals: options.approvals,
          run: (name, input, callId) =>
            context === undefined
              ? runtime.callTool(name, input, { callId })
              : context.callTool(runtime, name, input, emit, { callId }),
          emit,
        }),
      );
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
