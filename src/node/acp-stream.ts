import {
  addUsage,
  type CliFailure,
  type LoopEvent,
  type LoopUsage,
  ZERO_USAGE,
} from '../internal.js';
import { failedTurn, toolResultEvent } from './cli-session.js';
import { type Json, number, object } from './json-fields.js';

/**
 * An ACP agent's `session/update` notifications and `session/prompt` answers, read as the loop's
 * events: text and thoughts as they stream, each tool call once and its result once, usage and
 * cost, compactions; the prompt's stop reason (or its error, classified) becomes the turn's end.
 */

/** The text of a content block: its text, or what it points at. */
function blockText(block: Json | undefined): string {
  if (block === undefined) return '';
  if (typeof block.text === 'string') return block.text;
  if (block.type === 'resource_link') return `[${String(block.name ?? block.uri ?? 'resource')}]`;
  const resource = object(block.resource);
  if (resource !== undefined && typeof resource.text === 'string') return resource.text;
  return '';
}

/** A tool call's result as text: its content blocks, diffs and terminals named, else its raw output. */
function toolText(update: Json): string {
  const content = Array.isArray(update.content) ? update.content.map(object) : [];
  const pieces = content
    .map((item) => {
      if (item === undefined) return '';
      if (item.type === 'content') return blockText(object(item.content));
      if (item.type === 'diff') return `edited ${String(item.path ?? '')}`;
      if (item.type === 'terminal') return `terminal ${String(item.terminalId ?? '')}`;
      return '';
    })
    .filter((piece) => piece !== '');
  if (pieces.length > 0) return pieces.join('\n');
  if (typeof update.rawOutput === 'string') return update.rawOutput;
  return update.rawOutput === undefined ? '' : JSON.stringify(update.rawOutput);
}

/** What a prompt's failure means, from its JSON-RPC error. */
export function classifyAcpFailure(
  label: string,
  error: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown },
  loginHint: string,
): CliFailure {
  const detail = typeof error.data === 'string' ? error.data : JSON.stringify(error.data ?? '');
  const text = `${String(error.message ?? '')} ${detail === '""' ? '' : detail}`.trim();
  const message = `${label}: ${text === '' ? 'the prompt failed' : text}`;
  if (
    error.code === -32000 ||
    /auth(?:entication|orization)? (?:required|failed)|not logged in|log ?in|api key|unauthori[sz]ed|\b401\b|\b403\b/i.test(
      text,
    )
  )
    return { code: 'CLI_AGENT_LOGIN_REQUIRED', message, hint: loginHint };
  if (/rate.?limit|\b429\b|quota|RESOURCE_EXHAUSTED|too many requests/i.test(text))
    return { code: 'MODEL_RATE_LIMITED', message };
  if (/overloaded|\b529\b|\b503\b|UNAVAILABLE/i.test(text))
    return { code: 'MODEL_OVERLOADED', message };
  if (/context (?:window|length)|too long|token limit|exceeds the maximum/i.test(text))
    return { code: 'MODEL_CONTEXT_TOO_LONG', message };
  return { code: 'CLI_AGENT_FAILED', message };
}

export class AcpStreamReader {
  readonly #provider: string;
  #model = '';
  #step = 0;
  #turnSteps = 0;
  #needStep = true;
  #lastText = '';
  readonly #calls = new Map<string, string>();
  readonly #finished = new Set<string>();
  #cost: number | undefined;
  #costSeen: number | undefined;
  #interrupted = false;
  #turnOpen = false;

  constructor(provider: string) {
    this.#provider = provider;
  }

  set model(model: string) {
    this.#model = model;
  }

  get turnOpen(): boolean {
    return this.#turnOpen;
  }

  beginTurn(): void {
    this.#turnOpen = true;
    this.#turnSteps = 0;
    this.#needStep = true;
    this.#lastText = '';
    this.#interrupted = false;
  }

  markInterrupted(): void {
    this.#interrupted = true;
  }

  #stepIfNeeded(): LoopEvent[] {
    if (!this.#needStep) return [];
    this.#needStep = false;
    this.#step += 1;
    this.#turnSteps += 1;
    this.#lastText = '';
    return [{ type: 'step', step: this.#step, provider: this.#provider, model: this.#model }];
  }

  /** The events of one `session/update`. */
  read(update: Json): LoopEvent[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        const text = blockText(object(update.content));
        if (text === '') return [];
        const events = this.#stepIfNeeded();
        this.#lastText += text;
        events.push({ type: 'text', step: this.#step, text });
        return events;
      }
      case 'agent_thought_chunk': {
        const text = blockText(object(update.content));
        if (text === '') return [];
        return [...this.#stepIfNeeded(), { type: 'reasoning', step: this.#step, text }];
      }
      case 'tool_call':
      case 'tool_call_update':
        return this.#toolCall(update);
      case 'usage_update': {
        const cost = object(update.cost);
        if (cost !== undefined && cost.currency === 'USD' && number(cost.amount) !== undefined)
          this.#cost = number(cost.amount);
        return [];
      }
      case 'compaction_update':
        return update.status === 'completed'
          ? [
              {
                type: 'compaction',
                trigger: 'agent',
                agentTrigger: 'unknown',
                preTokens: null,
                postTokens: null,
              },
            ]
          : [];
      default:
        return [];
    }
  }

  #toolCall(update: Json): LoopEvent[] {
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : undefined;
    if (id === undefined) return [];
    const events: LoopEvent[] = [];
    if (!this.#calls.has(id)) {
      events.push(...this.#stepIfNeeded());
      const name =
        typeof update.title === 'string' && update.title !== ''
          ? update.title
          : typeof update.name === 'string'
            ? update.name
            : id;
      this.#calls.set(id, name);
      events.push({
        type: 'tool-call',
        step: this.#step,
        id,
        name,
        input: update.rawInput ?? {},
      });
    }
    const status = update.status;
    if ((status === 'completed' || status === 'failed') && !this.#finished.has(id)) {
      this.#finished.add(id);
      const text = toolText(update);
      events.push(
        toolResultEvent(
          { step: this.#step, id, name: this.#calls.get(id) ?? id },
          { isError: status === 'failed', code: null, text },
        ),
      );
      // What the agent says after a tool's result is the next step.
      this.#needStep = true;
    }
    return events;
  }

  /** The turn's end from the `session/prompt` answer. */
  finish(response: Json): LoopEvent[] {
    this.#turnOpen = false;
    const usage = usageOf(response);
    const events: LoopEvent[] = [];
    let costUsd: number | undefined;
    if (this.#cost !== undefined) {
      costUsd = Math.max(0, this.#cost - (this.#costSeen ?? 0));
      this.#costSeen = this.#cost;
    }
    const stop = typeof response.stopReason === 'string' ? response.stopReason : 'end_turn';
    events.push({
      type: 'usage',
      step: this.#step,
      usage,
      finishReason: stop,
      ...(costUsd === undefined ? {} : { costUsd }),
    });
    const base = { steps: this.#turnSteps, usage, text: this.#lastText };
    if (stop === 'cancelled' || this.#interrupted)
      events.push({
        type: 'end',
        status: 'interrupted',
        limit: null,
        code: 'AGENT_INTERRUPTED',
        reason: 'The turn was interrupted',
        ...base,
      });
    else if (stop === 'max_tokens' || stop === 'max_turn_requests')
      events.push({
        type: 'end',
        status: 'limit',
        limit: stop === 'max_tokens' ? 'output-tokens' : 'steps',
        code: 'AGENT_LIMIT_REACHED',
        reason: `The agent stopped at its limit (${stop})`,
        ...base,
      });
    else if (stop === 'refusal')
      events.push(
        { type: 'error', code: 'MODEL_REFUSED', message: 'The model refused to answer' },
        {
          type: 'end',
          status: 'failed',
          limit: null,
          code: 'MODEL_REFUSED',
          reason: 'The model refused to answer',
          ...base,
        },
      );
    else
      events.push({ type: 'end', status: 'done', limit: null, code: null, reason: null, ...base });
    return events;
  }

  /** The turn ended with a failure (the prompt's error, the agent's exit, silence). */
  abandon(failure: CliFailure): LoopEvent[] {
    if (!this.#turnOpen) return [];
    this.#turnOpen = false;
    return failedTurn(failure, {
      interrupted: this.#interrupted,
      steps: this.#turnSteps,
      text: this.#lastText,
    });
  }
}

/**
 * Tokens of a turn: the prompt answer's `usage` where the agent sends it, else Gemini CLI's
 * `_meta.quota.token_count`.
 */
function usageOf(response: Json): LoopUsage {
  const usage = object(response.usage);
  if (usage !== undefined)
    return addUsage(ZERO_USAGE, {
      inputTokens: number(usage.inputTokens) ?? 0,
      outputTokens: number(usage.outputTokens) ?? 0,
      cacheReadTokens: number(usage.cachedReadTokens) ?? 0,
      cacheWriteTokens: number(usage.cachedWriteTokens) ?? 0,
    });
  const count = object(object(object(response._meta)?.quota)?.token_count);
  return {
    ...ZERO_USAGE,
    inputTokens: number(count?.input_tokens) ?? 0,
    outputTokens: number(count?.output_tokens) ?? 0,
  };
}
