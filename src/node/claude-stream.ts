import {
  addUsage,
  type CliFailure,
  type LoopEvent,
  type LoopUsage,
  ZERO_USAGE,
} from '../internal.js';
import { failedTurn, toolResultEvent } from './cli-session.js';
import { type Json, list, number, object, string } from './json-fields.js';

/**
 * Claude Code's stream-json output, read as the loop's events: one reader per session, fed each
 * message in order. Text comes once even when the partial messages (`stream_event` deltas) and
 * the final `assistant` message both carry it; tool calls and results, usage and cost per turn,
 * compaction boundaries; each turn's `result` becomes its `end`, with failures classified.
 */

export const CLAUDE_LOGIN_HINT =
  'Log in to Claude Code once: run `claude` and type /login (or run `claude setup-token`), or set ANTHROPIC_API_KEY';

const LOGIN_TEXT =
  /not logged in|please run \/login|invalid api key|oauth token (?:has )?expired|authentication[_ ]failed|\/login\b/i;

/** What went wrong, from a failed `result` and the agent's last API error. */
export function classifyClaudeFailure(parts: {
  readonly subtype?: string | undefined;
  readonly status?: number | undefined;
  readonly errorType?: string | undefined;
  readonly terminalReason?: string | undefined;
  /** The `error` of the agent's synthetic error message (`authentication_failed`, `rate_limit`, …). */
  readonly apiError?: string | undefined;
  readonly text: string;
}): CliFailure {
  const { status, errorType, terminalReason, apiError, text } = parts;
  const message = text.trim() === '' ? 'Claude Code reported an error' : text.trim();
  if (
    apiError === 'authentication_failed' ||
    apiError === 'billing_error' ||
    status === 401 ||
    status === 403 ||
    LOGIN_TEXT.test(text)
  )
    return { code: 'CLI_AGENT_LOGIN_REQUIRED', message, hint: CLAUDE_LOGIN_HINT };
  if (parts.subtype === 'error_max_turns' || terminalReason === 'max_turns')
    return { code: 'AGENT_LIMIT_REACHED', message };
  if (status === 429 || apiError === 'rate_limit' || errorType === 'rate_limit_error')
    return { code: 'MODEL_RATE_LIMITED', message };
  if (status === 529 || errorType === 'overloaded_error' || /\boverloaded\b/i.test(text))
    return { code: 'MODEL_OVERLOADED', message };
  if (
    terminalReason === 'prompt_too_long' ||
    /prompt is too long|context (?:window|length) (?:exceeded|is full)/i.test(text)
  )
    return { code: 'MODEL_CONTEXT_TOO_LONG', message };
  if (status !== undefined && status >= 500) return { code: 'MODEL_REQUEST_FAILED', message };
  return { code: 'CLI_AGENT_FAILED', message };
}

/** What the agent may say about itself when it starts. */
export interface ClaudeInit {
  readonly sessionId: string | undefined;
  readonly model: string | undefined;
  readonly version: string | undefined;
  readonly tools: readonly string[];
}

/** Text already emitted for one API message, from its deltas or its final blocks. */
interface MessageText {
  emitted: string;
  fromDeltas: string;
  fromFinal: string;
}

export class ClaudeStreamReader {
  readonly #provider: string;
  #init: ClaudeInit | undefined;
  #started = false;
  #step = 0;
  #turnSteps = 0;
  #currentMessage: string | undefined;
  readonly #messages = new Set<string>();
  readonly #text = new Map<string, MessageText>();
  readonly #reasoning = new Map<string, MessageText>();
  readonly #toolNames = new Map<string, string>();
  #lastText = '';
  #apiError: string | undefined;
  #totalCost = 0;
  #interrupted = false;
  #turnOpen = false;

  constructor(provider = 'claude') {
    this.#provider = provider;
  }

  get init(): ClaudeInit | undefined {
    return this.#init;
  }

  /** A turn began (a message was sent). */
  beginTurn(): void {
    this.#turnOpen = true;
    this.#turnSteps = 0;
    this.#lastText = '';
    this.#apiError = undefined;
    this.#interrupted = false;
  }

  get turnOpen(): boolean {
    return this.#turnOpen;
  }

  /** The turn is being interrupted on purpose: it ends as `interrupted`. */
  markInterrupted(): void {
    this.#interrupted = true;
  }

  /** The events one output message stands for. */
  read(message: Json): LoopEvent[] {
    // A subagent's own messages are not the answer; its permission questions still come.
    if (message.parent_tool_use_id !== null && message.parent_tool_use_id !== undefined) return [];
    switch (message.type) {
      case 'system':
        return this.#system(message);
      case 'stream_event':
        return this.#streamEvent(object(message.event) ?? {});
      case 'assistant':
        return this.#assistant(message);
      case 'user':
        return this.#user(message);
      case 'result':
        return this.#result(message);
      default:
        return [];
    }
  }

  /**
   * The turn ended without a `result`: the agent exited, went silent or broke its protocol.
   * Answers the `error` and `end` events (none when no turn is open).
   */
  abandon(failure: CliFailure): LoopEvent[] {
    if (!this.#turnOpen) return [];
    this.#turnOpen = false;
    return failedTurn(failure, {
      interrupted: this.#interrupted,
      steps: this.#turnSteps,
      text: this.#lastText,
    });
  }

  #system(message: Json): LoopEvent[] {
    if (message.subtype === 'init') {
      this.#init = {
        sessionId: string(message.session_id),
        model: string(message.model),
        version: string(message.claude_code_version),
        tools: Array.isArray(message.tools)
          ? message.tools.filter((tool): tool is string => typeof tool === 'string')
          : [],
      };
      if (this.#started) return [];
      this.#started = true;
      return [
        {
          type: 'start',
          provider: this.#provider,
          model: this.#init.model ?? '',
          fallback: null,
          tools: this.#init.tools,
          ...(this.#init.sessionId === undefined ? {} : { agentSession: this.#init.sessionId }),
          ...(this.#init.version === undefined ? {} : { agentVersion: this.#init.version }),
        },
      ];
    }
    if (message.subtype === 'compact_boundary') {
      const metadata = object(message.compact_metadata) ?? {};
      const trigger = metadata.trigger;
      return [
        {
          type: 'compaction',
          trigger: 'agent',
          agentTrigger: trigger === 'auto' || trigger === 'manual' ? trigger : 'unknown',
          preTokens: number(metadata.pre_tokens) ?? null,
          postTokens: number(metadata.post_tokens) ?? null,
        },
      ];
    }
    return [];
  }

  /** A new API message: a step. */
  #stepFor(id: string | undefined, model: unknown): LoopEvent[] {
    const key = id ?? `anonymous-${this.#step + 1}`;
    this.#currentMessage = key;
    if (this.#messages.has(key)) return [];
    this.#messages.add(key);
    this.#step += 1;
    this.#turnSteps += 1;
    return [
      {
        type: 'step',
        step: this.#step,
        provider: this.#provider,
        model: string(model) ?? this.#init?.model ?? '',
      },
    ];
  }

  /** Emits what one source of the message's text holds beyond what was already emitted. */
  #emit(
    kind: 'text' | 'reasoning',
    id: string,
    source: 'fromDeltas' | 'fromFinal',
    piece: string,
  ): LoopEvent[] {
    const table = kind === 'text' ? this.#text : this.#reasoning;
    let entry = table.get(id);
    if (entry === undefined) {
      entry = { emitted: '', fromDeltas: '', fromFinal: '' };
      table.set(id, entry);
    }
    entry[source] += piece;
    const candidate = entry[source];
    // Deltas and final blocks carry the same text in the same order: say only what is new.
    if (candidate.length <= entry.emitted.length || !candidate.startsWith(entry.emitted)) return [];
    const extra = candidate.slice(entry.emitted.length);
    entry.emitted = candidate;
    if (kind === 'text') this.#lastText += extra;
    return [{ type: kind, step: this.#step, text: extra }];
  }

  #streamEvent(event: Json): LoopEvent[] {
    if (event.type === 'message_start') {
      const started = object(event.message) ?? {};
      return this.#stepFor(string(started.id), started.model);
    }
    if (event.type !== 'content_block_delta') return [];
    const id = this.#currentMessage;
    if (id === undefined) return [];
    const delta = object(event.delta) ?? {};
    if (delta.type === 'text_delta' && typeof delta.text === 'string')
      return this.#emit('text', id, 'fromDeltas', delta.text);
    if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
      return this.#emit('reasoning', id, 'fromDeltas', delta.thinking);
    return [];
  }

  #assistant(message: Json): LoopEvent[] {
    const body = object(message.message) ?? {};
    if (message.is_api_error_message === true || body.model === '<synthetic>') {
      this.#apiError = string(message.error) ?? this.#apiError ?? 'unknown';
      return [];
    }
    const events = this.#stepFor(string(body.id), body.model);
    const id = this.#currentMessage as string;
    for (const block of list(body.content)) {
      if (block.type === 'text' && typeof block.text === 'string')
        events.push(...this.#emit('text', id, 'fromFinal', block.text));
      else if (block.type === 'thinking' && typeof block.thinking === 'string')
        events.push(...this.#emit('reasoning', id, 'fromFinal', block.thinking));
      else if (block.type === 'tool_use' && typeof block.id === 'string') {
        if (this.#toolNames.has(block.id)) continue;
        const name = string(block.name) ?? '';
        this.#toolNames.set(block.id, name);
        events.push({
          type: 'tool-call',
          step: this.#step,
          id: block.id,
          name,
          input: block.input ?? {},
        });
      }
    }
    return events;
  }

  #user(message: Json): LoopEvent[] {
    const body = object(message.message) ?? {};
    const denied = new Set(
      list(message.tool_result_meta)
        .filter((meta) => meta.non_execution_kind === 'permission-rule')
        .map((meta) => meta.id),
    );
    const events: LoopEvent[] = [];
    for (const block of list(body.content)) {
      if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const text = resultText(block.content);
      events.push(
        toolResultEvent(
          {
            step: this.#step,
            id: block.tool_use_id,
            name: this.#toolNames.get(block.tool_use_id) ?? '',
          },
          {
            isError: block.is_error === true,
            code: denied.has(block.tool_use_id) ? 'PERMISSION_DENIED' : null,
            text,
          },
        ),
      );
    }
    return events;
  }

  #result(message: Json): LoopEvent[] {
    const raw = object(message.usage) ?? {};
    const usage: LoopUsage = {
      inputTokens: number(raw.input_tokens) ?? 0,
      outputTokens: number(raw.output_tokens) ?? 0,
      cacheReadTokens: number(raw.cache_read_input_tokens) ?? 0,
      cacheWriteTokens: number(raw.cache_creation_input_tokens) ?? 0,
    };
    // total_cost_usd counts the whole session: a turn's cost is what it added.
    const total = number(message.total_cost_usd);
    const cost = total === undefined ? undefined : Math.max(0, total - this.#totalCost);
    if (total !== undefined) this.#totalCost = Math.max(this.#totalCost, total);
    const resultText = string(message.result);
    const text = resultText ?? this.#lastText;
    const steps = this.#turnSteps;
    const interrupted = this.#interrupted;
    this.#turnOpen = false;
    const events: LoopEvent[] = [
      {
        type: 'usage',
        step: this.#step,
        usage: addUsage(ZERO_USAGE, usage),
        finishReason: string(message.stop_reason) ?? string(message.subtype) ?? 'unknown',
        ...(cost === undefined ? {} : { costUsd: cost }),
      },
    ];
    const failed =
      message.is_error === true ||
      (typeof message.subtype === 'string' && message.subtype.startsWith('error'));
    if (interrupted) {
      events.push({
        type: 'end',
        status: 'interrupted',
        limit: null,
        code: 'AGENT_INTERRUPTED',
        reason: 'The turn was interrupted',
        steps,
        usage,
        text,
      });
      return events;
    }
    if (!failed) {
      events.push({
        type: 'end',
        status: 'done',
        limit: null,
        code: null,
        reason: null,
        steps,
        usage,
        text,
      });
      return events;
    }
    const errors = Array.isArray(message.errors)
      ? message.errors.filter((item): item is string => typeof item === 'string')
      : [];
    const failure = classifyClaudeFailure({
      subtype: string(message.subtype),
      status: number(message.api_error_status),
      errorType: string(message.api_error_type),
      terminalReason: string(message.terminal_reason),
      apiError: this.#apiError,
      text: [resultText ?? '', ...errors].join('\n'),
    });
    const limit = failure.code === 'AGENT_LIMIT_REACHED';
    events.push(
      {
        type: 'error',
        code: failure.code,
        message: failure.message,
        ...(failure.hint === undefined ? {} : { hint: failure.hint }),
      },
      {
        type: 'end',
        status: limit ? 'limit' : 'failed',
        limit: limit ? 'steps' : null,
        code: failure.code,
        reason: failure.message,
        steps,
        usage,
        text: limit ? this.#lastText : '',
      },
    );
    return events;
  }
}

/** A tool result's content as the model reads it: its text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((block) =>
      typeof block.text === 'string'
        ? block.text
        : block.type === 'tool_reference'
          ? `tool ${String(block.tool_name ?? '')}`
          : JSON.stringify(block),
    )
    .join('\n');
}
