import type { ModelMessage } from 'ai';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_OUTPUT_TOKENS, modelLimits } from '../agents/models.js';
import { estimateTokens } from '../format/tokens.js';
import type { ToolCallOptions, ToolCallResult } from '../runtime/tools.js';
import { type CompactionBudgets, type CompactionOutcome, compactContext } from './compact.js';
import type { ContextAuditEvent, ContextEvent } from './events.js';
import {
  type ActivationNote,
  type LedgerEntry,
  type LedgerRecord,
  SkillLedger,
  type SkillStateReason,
} from './ledger.js';
import { skillToolKind } from './messages.js';
import { type CountTokens, TokenMeter } from './meter.js';
import { renderSkillsState, SKILL_FULL_TOKENS, SKILLS_FULL_TOKENS } from './skills-state.js';
import type { Summarizer } from './summary-input.js';

/**
 * The context manager of one agent session: the skill ledger, the request's size counted
 * incrementally, and compaction when the next request would pass the threshold, when the
 * provider says the context is too long, or when asked. The agent loop calls it before each
 * request and runs every tool call through it (so the ledger sees activations and uses).
 */

/** Compaction starts at this share of the window minus the output reserve (default). */
export const COMPACT_AT = 0.8;
/** Most tokens of a summary (default). */
export const SUMMARY_TOKENS = 2_000;

export interface ContextOptions {
  /** The model's context window in tokens; default: the model table, else 32,768. */
  readonly contextWindow?: number;
  /** The agent's context_budget: the window is never taken as larger. */
  readonly contextBudget?: number;
  /** The share of (window − output reserve) at which compaction starts (default 0.8). */
  readonly compactAt?: number;
  /** Most tokens of one skill kept in full (default 5,000), and of all of them (default 25,000). */
  readonly perSkillTokens?: number;
  readonly allSkillsTokens?: number;
  /** Tokens of the newest tool outputs pruning keeps (default: a quarter of the threshold, at most 20,000). */
  readonly protectedToolTokens?: number;
  /** Tokens of recent messages kept verbatim (default: a fifth of the threshold, at most 20,000). */
  readonly tailTokens?: number;
  /** Most tokens of a summary (default 2,000). */
  readonly summaryTokens?: number;
  /** A summariser of its own (a cheaper model); default: the model the loop calls. */
  readonly summarizer?: Summarizer;
  /** Skill summaries: from the body (default, no model call) or written by the summariser, once per content hash. */
  readonly skillSummaries?: 'body' | 'model';
  readonly countTokens?: CountTokens;
  /** The ledger restored from a session log. */
  readonly ledger?: SkillLedger;
  /** Hears the whole ledger after each change (the session log appends it). */
  readonly onLedger?: (record: LedgerRecord) => void;
}

/** The window, the output reserve and the threshold for one model. */
export interface ContextLimits {
  readonly contextWindow: number;
  /** Whether the window came from the model table or the options (not the default). */
  readonly known: boolean;
  readonly outputReserve: number;
  readonly threshold: number;
}

/** Where a request goes, and what hears the manager. */
export interface ContextRequest {
  readonly system: string;
  readonly tools: unknown;
  readonly messages: readonly ModelMessage[];
  readonly model: string;
  /** The most output tokens the request may take, when the run limits them. */
  readonly maxOutputTokens?: number;
  /** The summariser when the manager has none of its own (the loop's model). */
  readonly summarize: Summarizer;
  readonly signal?: AbortSignal;
  readonly emit?: (event: ContextEvent) => void;
  readonly audit?: (record: ContextAuditEvent) => void;
}

/** What `prepare` found: the request's size, the limits, and the compaction made, if any. */
export interface PreparedRequest {
  readonly tokens: number;
  readonly limits: ContextLimits;
  /** The step this request is (the session's count). */
  readonly step: number;
  readonly compaction: CompactionOutcome | undefined;
}

const PRUNE_SHARE = 0.25;
const TAIL_SHARE = 0.2;
const SKILLS_SHARE = 0.3;
const SUMMARY_SHARE = 0.1;
const CAP = 20_000;
/** After a summary failed, the threshold is tried again only once the request grew by a tenth. */
const RETRY_GROWTH = 1.1;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function bare(name: string): string {
  return name.includes('@') ? name.slice(0, name.indexOf('@')) : name;
}

/** The skill's text as the ledger keeps it: the wrapped body, without a notice before it. */
function activationText(text: string): string {
  const start = text.indexOf('<skill_content');
  return start <= 0 ? text : text.slice(start);
}

export class ContextManager {
  readonly ledger: SkillLedger;
  readonly meter: TokenMeter;
  readonly #options: ContextOptions;
  #failedAt: number | undefined;

  constructor(options: ContextOptions = {}) {
    this.#options = options;
    this.ledger = options.ledger ?? new SkillLedger();
    this.meter = new TokenMeter(options.countTokens ?? estimateTokens);
  }

  /** The window, reserve and threshold for a model. */
  limits(model: string, maxOutputTokens?: number): ContextLimits {
    const table = modelLimits(model);
    const given = this.#options.contextWindow;
    let window = given ?? table?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    const budget = this.#options.contextBudget;
    if (budget !== undefined) window = Math.min(window, budget);
    const wanted = Math.min(
      maxOutputTokens ?? Number.POSITIVE_INFINITY,
      table?.maxOutputTokens ?? DEFAULT_OUTPUT_TOKENS,
    );
    const outputReserve = Math.min(wanted, Math.floor(window / 4));
    return {
      contextWindow: window,
      known: given !== undefined || table !== undefined || budget !== undefined,
      outputReserve,
      threshold: Math.floor((this.#options.compactAt ?? COMPACT_AT) * (window - outputReserve)),
    };
  }

  /**
   * The budgets of a compaction: the defaults are shares of what the threshold leaves after the
   * system prompt and the tools (`fixed`), so that a compacted context fits well below it.
   */
  budgets(threshold: number, fixed = 0): CompactionBudgets {
    const o = this.#options;
    const room = Math.max(0, threshold - fixed);
    const share = (part: number, cap: number) => Math.min(cap, Math.floor(room * part));
    const allSkills = o.allSkillsTokens ?? share(SKILLS_SHARE, SKILLS_FULL_TOKENS);
    return {
      threshold,
      protectedTools: o.protectedToolTokens ?? share(PRUNE_SHARE, CAP),
      tail: o.tailTokens ?? share(TAIL_SHARE, CAP),
      perSkill: Math.min(o.perSkillTokens ?? SKILL_FULL_TOKENS, allSkills),
      allSkills,
      summary: o.summaryTokens ?? Math.max(200, share(SUMMARY_SHARE, SUMMARY_TOKENS)),
      // About four characters a token; the summariser's own window is the loop's.
      summaryInputCharacters: Math.max(20_000, threshold * 3),
    };
  }

  /**
   * Before a request: counts it (incrementally), and compacts when it would pass the threshold.
   * Counts the step.
   */
  async prepare(request: ContextRequest): Promise<PreparedRequest> {
    const step = this.ledger.nextStep();
    const limits = this.limits(request.model, request.maxOutputTokens);
    let tokens = this.meter.request(request.system, request.tools, request.messages);
    const retry = this.#failedAt === undefined || tokens > this.#failedAt * RETRY_GROWTH;
    if (tokens <= limits.threshold || !retry)
      return { tokens, limits, step, compaction: undefined };
    const compaction = await this.compact({ ...request, trigger: 'threshold' });
    tokens = compaction.event.postTokens ?? tokens;
    this.#failedAt = compaction.failure === undefined ? undefined : tokens;
    return { tokens, limits, step, compaction };
  }

  /** Compacts now: for the threshold, a provider's "too long" (`overflow`), or the user (`manual`). */
  async compact(
    request: ContextRequest & { readonly trigger: 'threshold' | 'overflow' | 'manual' },
  ): Promise<CompactionOutcome> {
    const limits = this.limits(request.model, request.maxOutputTokens);
    const summarize = this.#options.summarizer ?? request.summarize;
    if (this.#options.skillSummaries === 'model')
      await this.#modelSummaries(summarize, request.signal);
    const outcome = await compactContext({
      trigger: request.trigger,
      system: request.system,
      tools: request.tools,
      messages: request.messages,
      ledger: this.ledger,
      meter: this.meter,
      budgets: this.budgets(limits.threshold, this.meter.fixed(request.system, request.tools)),
      summarize,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    this.meter.reset();
    if (!outcome.changed) return outcome;
    const { event } = outcome;
    request.emit?.(event);
    request.audit?.({
      event: 'context-compact',
      details: {
        trigger: event.trigger,
        pre_tokens: event.preTokens,
        post_tokens: event.postTokens,
        context_window: limits.contextWindow,
        threshold: limits.threshold,
        pruned: event.pruned ?? 0,
        summarized: event.summarized === true,
        kept: event.kept ?? [],
        truncated: event.truncated ?? [],
        demoted: event.demoted ?? [],
        ...(event.summaryInputTokens === undefined
          ? {}
          : { summary_input_tokens: event.summaryInputTokens }),
        ...(event.summaryOutputTokens === undefined
          ? {}
          : { summary_output_tokens: event.summaryOutputTokens }),
      },
    });
    if (outcome.skills !== undefined) {
      this.ledger.setStates(outcome.skills.states);
      for (const entry of this.ledger.entries())
        this.#stateEvent(entry, 'compaction', request.emit);
      this.#saveLedger();
    }
    return outcome;
  }

  /** Runs a tool call through the runtime and notes what it did to the skills. */
  async callTool(
    runtime: {
      callTool(name: string, input: unknown, options?: ToolCallOptions): Promise<ToolCallResult>;
    },
    name: string,
    input: unknown,
    emit?: (event: ContextEvent) => void,
    options: ToolCallOptions = {},
  ): Promise<ToolCallResult> {
    const kind = skillToolKind(name);
    let sent = input;
    // A skill no longer in full is brought back by its hash, even when asked for by name alone.
    if (
      kind === 'activate' &&
      isObject(input) &&
      typeof input.name === 'string' &&
      input.hash === undefined
    ) {
      const entry = this.ledger.get(bare(input.name));
      if (entry !== undefined && entry.state !== 'full' && entry.hash !== '')
        sent = { ...input, hash: entry.hash };
    }
    const result = await runtime.callTool(name, sent, options);
    if (kind === undefined || result.isError) return result;
    if (kind === 'activate') {
      const data = result.data ?? {};
      if (data.alreadyActive === true && typeof data.name === 'string') {
        if (this.ledger.used(data.name, this.ledger.step)) this.#saveLedger();
      } else if (typeof data.name === 'string') {
        this.noteActivation(
          {
            name: data.name,
            address: String(data.address ?? data.name),
            source: String(data.source ?? ''),
            trusted: data.trust === 'trusted',
            description: String(data.description ?? ''),
            hash: typeof data.contentHash === 'string' ? data.contentHash : '',
            text: activationText(result.text),
          },
          emit,
        );
      }
      return result;
    }
    if (
      isObject(sent) &&
      typeof sent.name === 'string' &&
      this.ledger.used(bare(sent.name), this.ledger.step)
    )
      this.#saveLedger();
    return result;
  }

  /**
   * What a command-line agent's `onSessionStart` hook answers: after the agent compacted its own
   * conversation (`compact`) or on `resume`, the skills state of the ledger (the most recently
   * used skills in full when their texts are known, the others as stubs), its states recorded;
   * nothing at `startup`, after a `clear`, or without an activated skill.
   */
  sessionStart(source: string, emit?: (event: ContextEvent) => void): string | undefined {
    if ((source !== 'compact' && source !== 'resume') || this.ledger.size === 0) return undefined;
    // The agent's own window is its business: the default budgets (5,000 a skill, 25,000 in all).
    const state = renderSkillsState(this.ledger.entries(), {
      text: (hash) => this.ledger.text(hash),
      perSkill: this.#options.perSkillTokens ?? SKILL_FULL_TOKENS,
      allSkills: this.#options.allSkillsTokens ?? SKILLS_FULL_TOKENS,
      count: this.meter.count,
    });
    this.ledger.setStates(state.states);
    for (const entry of this.ledger.entries()) this.#stateEvent(entry, 'compaction', emit);
    this.#saveLedger();
    return state.text;
  }

  /** An activation the model received some other way (the user's `/skill` in a chat). */
  noteActivation(
    note: Omit<ActivationNote, 'tokens'>,
    emit?: (event: ContextEvent) => void,
  ): LedgerEntry {
    const { entry, reason } = this.ledger.activated(
      { ...note, tokens: this.meter.count(note.text) },
      Math.max(1, this.ledger.step),
    );
    this.#stateEvent(entry, reason, emit);
    this.#saveLedger();
    return entry;
  }

  #stateEvent(
    entry: LedgerEntry,
    reason: SkillStateReason,
    emit: ((event: ContextEvent) => void) | undefined,
  ): void {
    emit?.({
      type: 'skill-state',
      skill: entry.name,
      source: entry.source,
      hash: entry.hash,
      state: entry.state,
      reason,
      tokens: entry.tokens,
    });
  }

  #saveLedger(): void {
    this.#options.onLedger?.(this.ledger.record());
  }

  /** Model-written skill summaries, once per content hash (an option). */
  async #modelSummaries(summarize: Summarizer, signal: AbortSignal | undefined): Promise<void> {
    for (const entry of this.ledger.entries()) {
      const text = entry.summaryBy === 'model' ? undefined : this.ledger.text(entry.hash);
      if (text === undefined) continue;
      try {
        const result = await summarize({
          system:
            'Summarise what this skill is for and when to use it in one or two sentences. Do not restate its steps.',
          prompt: text,
          maxOutputTokens: 120,
          ...(signal === undefined ? {} : { signal }),
        });
        this.ledger.setModelSummary(entry.hash, result.text);
      } catch {
        // The summary from the body stays.
      }
    }
  }
}
