import type { Code } from '../codes.js';
import type { CompactionEvent, SkillStateEvent } from '../context/events.js';

/**
 * The version of the event schema: `skillhost agent run --json` prints one event per line, each
 * with `v` set to this. A field is only ever added within a version; a change that would break a
 * reader (a field removed, renamed or retyped) bumps it.
 */
export const EVENT_SCHEMA_VERSION = 1;

/** How a run ended; the command line maps it to its exit code. */
export type LoopStatus = 'done' | 'failed' | 'refused' | 'limit' | 'interrupted';

/** Which limit stopped a run. */
export type LoopLimit = 'steps' | 'output-tokens' | 'wall-time' | 'context-budget';

/** Tokens of one request, or of the whole run; cache counts when the provider reports them. */
export interface LoopUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWriteTokens: number;
}

/** One normalised event of a run. Every event has `type`; the command line adds `v`, `session`, `seq`, `time`. */
export type LoopEvent =
  | {
      readonly type: 'start';
      readonly provider: string;
      readonly model: string;
      readonly fallback: string | null;
      readonly tools: readonly string[];
      /** A command-line agent's own session id (what resuming it takes), once it said it. */
      readonly agentSession?: string;
      /** A command-line agent's version, as it reported it. */
      readonly agentVersion?: string;
    }
  | {
      readonly type: 'step';
      readonly step: number;
      readonly provider: string;
      readonly model: string;
      /** The request's size as the loop counts it, before sending (with a context manager, or a context_budget). */
      readonly contextTokens?: number;
      /** The model's context window the compaction threshold is taken from. */
      readonly contextWindow?: number;
      /** The size at which the context is compacted before a request. */
      readonly compactThreshold?: number;
    }
  | { readonly type: 'text'; readonly step: number; readonly text: string }
  | { readonly type: 'reasoning'; readonly step: number; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly step: number;
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'approval-request';
      readonly id: string;
      /** The tool call that asked, when the loop knows it. */
      readonly toolCallId: string | null;
      /** SHA-256 of the exact input asked about (the question as JSON). */
      readonly inputHash: string;
      readonly kind: string;
      readonly summary: string;
      readonly question: unknown;
    }
  | {
      readonly type: 'approval-decision';
      readonly id: string;
      readonly inputHash: string;
      /** once, session (always for this session), denied, quit. */
      readonly decision: 'once' | 'session' | 'denied' | 'quit';
      /** Who decided: the user at the terminal, a flag (--yes, --allow), a grant given earlier in the session, or nobody (no terminal). */
      readonly by: 'user' | 'flag' | 'session' | 'no-terminal';
      readonly reason: string | null;
    }
  | {
      readonly type: 'tool-result';
      readonly step: number;
      readonly id: string;
      readonly name: string;
      readonly isError: boolean;
      readonly code: Code | null;
      /** Bytes of the text the model receives. */
      readonly bytes: number;
      /** The text the model receives (cut to 2,000 characters in the event; whole in the history). */
      readonly text: string;
    }
  | {
      readonly type: 'usage';
      readonly step: number;
      readonly usage: LoopUsage;
      readonly finishReason: string;
      /** What the request (or a command-line agent's turn) cost in US dollars, when the provider says. */
      readonly costUsd?: number;
    }
  | {
      readonly type: 'retry';
      readonly step: number;
      readonly attempt: number;
      readonly delayMs: number;
      readonly code: Code;
      readonly message: string;
    }
  | {
      readonly type: 'model-switch';
      readonly step: number;
      readonly from: string;
      readonly to: string;
      readonly code: Code;
      readonly message: string;
    }
  | {
      readonly type: 'error';
      readonly code: Code;
      readonly message: string;
      /** What to do about it, when the code alone does not say (a login command, say). */
      readonly hint?: string;
    }
  /**
   * The context was compacted (by the loop, or by a command-line agent itself: `trigger`
   * `agent`), and each skill's place in the context after it (`skill-state`).
   */
  | CompactionEvent
  | SkillStateEvent
  | {
      /** Something the user should know that does not stop the run. */
      readonly type: 'warning';
      readonly code: Code;
      readonly message: string;
    }
  | {
      readonly type: 'end';
      readonly status: LoopStatus;
      readonly limit: LoopLimit | null;
      readonly code: Code | null;
      readonly reason: string | null;
      readonly steps: number;
      readonly usage: LoopUsage;
      /** The last answer's text. */
      readonly text: string;
    };

export const ZERO_USAGE: LoopUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

export function addUsage(a: LoopUsage, b: LoopUsage): LoopUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}
