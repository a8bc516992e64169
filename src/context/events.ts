import type { SkillState, SkillStateReason } from './ledger.js';

/** What started a compaction: the threshold, the provider's "too long", the user, or a command-line agent itself. */
export type CompactionTrigger = 'threshold' | 'overflow' | 'manual' | 'agent';

/**
 * A compaction: the context was made smaller. A command-line agent's own compaction has only
 * `trigger` (`agent`, with the agent's word in `agentTrigger`) and the token counts it gave.
 */
export interface CompactionEvent {
  readonly type: 'compaction';
  readonly trigger: CompactionTrigger;
  /** A command-line agent's own word for what started it: `auto`, `manual`, or `unknown`. */
  readonly agentTrigger?: 'auto' | 'manual' | 'unknown';
  /** Tokens in context before and after (null when a command-line agent did not say). */
  readonly preTokens: number | null;
  readonly postTokens: number | null;
  /** Tool outputs replaced by placeholders. */
  readonly pruned?: number;
  /** Whether a summary was made (pruning alone may have been enough). */
  readonly summarized?: boolean;
  /** Skills in full in the new context, truncated at their head, and demoted to stubs. */
  readonly kept?: readonly string[];
  readonly truncated?: readonly string[];
  readonly demoted?: readonly string[];
  /** Tokens the summary request took, when a summary was made and the provider said. */
  readonly summaryInputTokens?: number;
  readonly summaryOutputTokens?: number;
}

/** A skill's place in the context changed (or was stated again at a compaction). */
export interface SkillStateEvent {
  readonly type: 'skill-state';
  readonly skill: string;
  readonly source: string;
  /** SHA-256 of the skill's SKILL.md (hex). */
  readonly hash: string;
  readonly state: SkillState;
  readonly reason: SkillStateReason;
  /** Tokens of its activation text. */
  readonly tokens: number;
}

export type ContextEvent = CompactionEvent | SkillStateEvent;

/** The audit record of a compaction (`context-compact`), with the event's fields. */
export interface ContextAuditEvent {
  readonly event: 'context-compact';
  readonly details: Readonly<Record<string, unknown>>;
}
