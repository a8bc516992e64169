import type { ModelMessage, ToolResultPart } from 'ai';
import { outputText, skillToolKind, toolResults } from './messages.js';
import type { TokenMeter } from './meter.js';

/**
 * Cheap pruning, the first step of every compaction: tool outputs older than a protected recent
 * budget become short placeholders. Activations are never pruned (their bodies are the skills'
 * instructions, kept by the skills state); nothing else changes, and a message no output of
 * which was pruned stays the same object.
 */

/** How a pruned output starts. */
export const PRUNED_PREFIX = '[skillhost: this output of ';

export interface PruneResult {
  readonly messages: ModelMessage[];
  /** Outputs replaced by placeholders. */
  readonly pruned: number;
}

function placeholder(part: ToolResultPart, tokens: number): ToolResultPart {
  const error = (part.output as { type: string }).type.startsWith('error');
  const value = `${PRUNED_PREFIX}${part.toolName} (about ${tokens} tokens) was removed to save context; call the tool again if you need it]`;
  return {
    ...part,
    output: error ? { type: 'error-text', value } : { type: 'text', value },
  };
}

/**
 * Replaces the outputs of tool calls older than the newest `protect` tokens of outputs with
 * placeholders, from `from` on (a tail the caller keeps is passed as `from`). The newest output
 * is always kept.
 */
export function pruneToolOutputs(
  messages: readonly ModelMessage[],
  meter: TokenMeter,
  protect: number,
  from = 0,
): PruneResult {
  const result = [...messages];
  let recent = 0;
  let pruned = 0;
  for (let index = messages.length - 1; index >= from; index -= 1) {
    const message = messages[index] as ModelMessage;
    if (message.role !== 'tool') continue;
    const parts = toolResults(message);
    let replaced: Map<ToolResultPart, ToolResultPart> | undefined;
    for (let at = parts.length - 1; at >= 0; at -= 1) {
      const part = parts[at] as ToolResultPart;
      if (skillToolKind(part.toolName) === 'activate') continue;
      const text = outputText(part);
      if (text.startsWith(PRUNED_PREFIX)) continue;
      // A message of one output is that output: its size is known already (the trigger counted it).
      const tokens = parts.length === 1 ? meter.message(message) : meter.part(part, text);
      if (recent >= protect && recent > 0) {
        replaced ??= new Map();
        replaced.set(part, placeholder(part, tokens));
        pruned += 1;
      }
      recent += tokens;
    }
    if (replaced !== undefined) {
      const swap = replaced;
      result[index] = {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-result' ? (swap.get(part) ?? part) : part,
        ),
      } as ModelMessage;
    }
  }
  return { messages: result, pruned };
}
