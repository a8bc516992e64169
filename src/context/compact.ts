import type { ModelMessage, UserModelMessage } from 'ai';
import type { Code } from '../codes.js';
import type { CompactionEvent, CompactionTrigger } from './events.js';
import type { SkillLedger } from './ledger.js';
import {
  BOUNDARY_PREFIX,
  isCompactionMessage,
  lastCompactionIndex,
  messageTexts,
  outputText,
  SUMMARY_HEADING,
  skillContentNames,
  skillToolKind,
  toolResults,
} from './messages.js';
import type { TokenMeter } from './meter.js';
import { pruneToolOutputs } from './prune.js';
import { renderSkillsState, type SkillsState } from './skills-state.js';
import { splitPoint } from './split.js';
import {
  SUMMARY_INSTRUCTIONS,
  type Summarizer,
  type SummaryResult,
  summaryPrompt,
} from './summary-input.js';

/**
 * One compaction, as a function of the conversation, the ledger and budgets: prune; if that is
 * not enough, split, summarise the head (skill text stubbed) and build the new context:
 * boundary marker → summary → skills state → the tail, verbatim. The system prompt is not part
 * of it: it stays byte for byte the same.
 */

/** The budgets of a compaction, in tokens. */
export interface CompactionBudgets {
  /** The request size at which compaction starts. */
  readonly threshold: number;
  /** Recent tool outputs kept by pruning. */
  readonly protectedTools: number;
  /** The recent messages kept verbatim. */
  readonly tail: number;
  /** Most tokens of one skill in full, and of all skills in full. */
  readonly perSkill: number;
  readonly allSkills: number;
  /** Most tokens of the summary. */
  readonly summary: number;
  /** Most characters of the summariser's transcript. */
  readonly summaryInputCharacters: number;
}

/** Pruning alone is enough when it brings the request to this share of the threshold. */
export const PRUNE_ENOUGH = 0.75;

export interface CompactionInput {
  readonly trigger: Exclude<CompactionTrigger, 'agent'>;
  readonly system: string;
  readonly tools: unknown;
  readonly messages: readonly ModelMessage[];
  readonly ledger: SkillLedger;
  readonly meter: TokenMeter;
  readonly budgets: CompactionBudgets;
  readonly summarize: Summarizer;
  readonly signal?: AbortSignal;
}

export interface CompactionOutcome {
  /** The new conversation (the same array when nothing could be done). */
  readonly messages: readonly ModelMessage[];
  readonly event: CompactionEvent;
  /** The skills state put in (undefined when only pruned). */
  readonly skills: SkillsState | undefined;
  /** Why no summary could be made, when one was needed and the summariser failed. */
  readonly failure?: { readonly code: Code; readonly message: string };
  /** Whether the context changed at all. */
  readonly changed: boolean;
}

/** The skills whose activation (or a body quoted in a message) is in these messages. */
function skillsIn(messages: readonly ModelMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    for (const part of toolResults(message))
      if (skillToolKind(part.toolName) === 'activate')
        for (const name of skillContentNames(outputText(part))) names.add(name);
    if (message.role === 'user' && !isCompactionMessage(message))
      for (const text of messageTexts(message))
        for (const name of skillContentNames(text)) names.add(name);
  }
  return names;
}

/** The user's own words of the current turn, when the split fell inside it. */
function currentTask(head: readonly ModelMessage[], tail: readonly ModelMessage[]): string {
  if (tail.some((message) => message.role === 'user')) return '';
  for (let index = head.length - 1; index >= 0; index -= 1) {
    const message = head[index] as ModelMessage;
    if (message.role !== 'user') continue;
    if (isCompactionMessage(message)) return '';
    return messageTexts(message).join('\n').trim();
  }
  return '';
}

function marker(trigger: CompactionTrigger, pre: number, post: number): string {
  const number = (value: number) => value.toLocaleString('en-US');
  return `${BOUNDARY_PREFIX} (trigger: ${trigger}; about ${number(pre)} tokens before, ${number(post)} after). The earlier turns are summarised below; the skills' instructions follow the summary, as their files hold them; then the recent messages, as they were.]`;
}

function errorOf(error: unknown): { code: Code; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string'
      ? ((error as { code: Code }).code as Code)
      : 'MODEL_REQUEST_FAILED';
  return { code, message };
}

function nothing(
  input: CompactionInput,
  pre: number,
  messages: readonly ModelMessage[],
  pruned: number,
  failure?: { code: Code; message: string },
): CompactionOutcome {
  const post = pruned > 0 ? input.meter.request(input.system, input.tools, messages) : pre;
  const full = input.ledger.entries().filter((entry) => entry.state === 'full');
  return {
    messages,
    changed: pruned > 0,
    skills: undefined,
    ...(failure === undefined ? {} : { failure }),
    event: {
      type: 'compaction',
      trigger: input.trigger,
      preTokens: pre,
      postTokens: post,
      pruned,
      summarized: false,
      kept: full.map((entry) => entry.name),
      truncated: [],
      demoted: input.ledger
        .entries()
        .filter((entry) => entry.state !== 'full')
        .map((entry) => entry.name),
    },
  };
}

/**
 * Compacts a conversation. Pruning first; for the threshold, pruning that brings the request to
 * three quarters of it makes no summary. A manual or overflow compaction always summarises when
 * there is a head to summarise.
 */
export async function compactContext(input: CompactionInput): Promise<CompactionOutcome> {
  const { meter, budgets, ledger } = input;
  const size = (messages: readonly ModelMessage[]) =>
    meter.request(input.system, input.tools, messages);
  meter.reset();
  const pre = size(input.messages);
  const after = lastCompactionIndex(input.messages);
  const pruned = pruneToolOutputs(input.messages, meter, budgets.protectedTools, after + 1);
  let current: readonly ModelMessage[] = pruned.messages;
  if (input.trigger === 'threshold' && size(current) <= budgets.threshold * PRUNE_ENOUGH)
    return nothing(input, pre, current, pruned.pruned);

  // Asked for (or told by the provider that the request is too long, whatever our count says):
  // most of the conversation goes into the summary, whatever the tail's budget.
  const messagesTokens = size(current) - meter.fixed(input.system, input.tools);
  const tailBudget =
    input.trigger === 'threshold'
      ? budgets.tail
      : Math.min(
          budgets.tail,
          Math.floor(messagesTokens * (input.trigger === 'overflow' ? 0.25 : 0.5)),
        );
  const start = splitPoint(current, meter, tailBudget, after);
  // Nothing before the tail: there is no head to summarise.
  if (start <= 0)
    return nothing(input, pre, pruned.pruned > 0 ? current : input.messages, pruned.pruned);
  const head = current.slice(0, start);
  let tail = current.slice(start);

  let summary: SummaryResult;
  try {
    summary = await input.summarize({
      system: SUMMARY_INSTRUCTIONS,
      prompt: summaryPrompt(head, budgets.summaryInputCharacters),
      maxOutputTokens: budgets.summary,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
  } catch (error) {
    return nothing(input, pre, current, pruned.pruned, errorOf(error));
  }
  const task = currentTask(head, tail);
  const skills = renderSkillsState(ledger.entries(), {
    text: (hash) => ledger.text(hash),
    inTail: skillsIn(tail),
    perSkill: budgets.perSkill,
    allSkills: budgets.allSkills,
    count: meter.count,
  });
  const summaryText = `${SUMMARY_HEADING}\n\n${summary.text.trim() === '' ? '(The summariser wrote nothing.)' : summary.text.trim()}${task === '' ? '' : `\n\nThe user's request in the current turn, verbatim:\n${task}`}`;
  const build = (markerText: string): ModelMessage[] => {
    const first: UserModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text: markerText },
        { type: 'text', text: summaryText },
        ...(skills.text === '' ? [] : [{ type: 'text' as const, text: skills.text }]),
      ],
    };
    return [first, ...tail];
  };
  let next = build(marker(input.trigger, pre, 0));
  if (size(next) > budgets.threshold) {
    // Still too large: the tail's older outputs go too (the newest one stays).
    tail = pruneToolOutputs(tail, meter, 0).messages;
    next = build(marker(input.trigger, pre, 0));
  }
  // The marker says the size after: only its own few tokens change, so the rest is not counted again.
  const draft = next[0] as ModelMessage;
  const estimate = size(next);
  const draftMarker = marker(input.trigger, pre, 0);
  next = build(marker(input.trigger, pre, estimate));
  const first = next[0] as ModelMessage;
  meter.remember(
    first,
    meter.message(draft) +
      meter.count(marker(input.trigger, pre, estimate)) -
      meter.count(draftMarker),
  );
  current = next;
  const post = size(current);
  return {
    messages: current,
    changed: true,
    skills,
    event: {
      type: 'compaction',
      trigger: input.trigger,
      preTokens: pre,
      postTokens: post,
      pruned: pruned.pruned,
      summarized: true,
      kept: skills.kept,
      truncated: skills.truncated,
      demoted: skills.demoted,
      ...(summary.inputTokens === undefined ? {} : { summaryInputTokens: summary.inputTokens }),
      ...(summary.outputTokens === undefined ? {} : { summaryOutputTokens: summary.outputTokens }),
    },
  };
}
