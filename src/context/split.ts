import type { ModelMessage } from 'ai';
import type { TokenMeter } from './meter.js';

/**
 * Where a compaction splits the conversation into a head (summarised) and a tail (kept
 * verbatim). A split is at a user turn's first message when the recent turns fit the tail's
 * budget; when even the current turn does not (a long agent run is one turn of many steps), at
 * a step's first message: an assistant message after the results of the step before. Never
 * between a tool call and its result, and never before the message the last compaction put
 * first (its summary is summarised again, never kept beside a new one).
 */

/** Whether a tail may start at `index`: a user message, or an assistant message opening a step. */
export function isTurnStart(messages: readonly ModelMessage[], index: number): boolean {
  return messages[index]?.role === 'user';
}

export function isStepStart(messages: readonly ModelMessage[], index: number): boolean {
  if (messages[index]?.role !== 'assistant' || index === 0) return false;
  const before = messages[index - 1]?.role;
  return before === 'tool' || before === 'user';
}

/**
 * The index the tail starts at: the earliest turn start after `after` whose tail fits
 * `budget`; else the earliest step start that fits; else the latest start of either kind (a tail
 * of one step, over the budget). Equal to `after + 1` when there is nothing to summarise, and to
 * `messages.length` when no message after `after` can start a tail.
 */
export function splitPoint(
  messages: readonly ModelMessage[],
  meter: TokenMeter,
  budget: number,
  after = -1,
): number {
  let suffix = 0;
  let turn: number | undefined;
  let step: number | undefined;
  let latest: number | undefined;
  for (let index = messages.length - 1; index > after; index -= 1) {
    suffix += meter.message(messages[index] as ModelMessage);
    const turnStart = isTurnStart(messages, index);
    const stepStart = !turnStart && isStepStart(messages, index);
    if (!turnStart && !stepStart) continue;
    latest ??= index;
    if (suffix > budget) break;
    if (turnStart) turn = index;
    else step = index;
  }
  return turn ?? step ?? latest ?? messages.length;
}
