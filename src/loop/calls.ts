import type { ModelMessage } from 'ai';
import type { ToolCallResult } from '../runtime/tools.js';
import type { LoopEvent } from './events.js';
import type { StepCall } from './request.js';

/**
 * The tool calls of one step, in order, each with its result: an interrupted run, an input cut
 * by the output limit or one that cannot be read gets an error result and never runs; the
 * others run (through the runtime, or the context manager in front of it). One tool message
 * answers every call.
 */

const EVENT_TEXT = 2000;

/** A text cut for an event (whole in the history). */
export function cut(text: string, max = EVENT_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function bytesOf(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** What the calls need of the approval broker: to tie requests to calls, and whether the user quit. */
export interface CallApprovals {
  beginCall(toolCallId: string | null): void;
  takeNotes(): string[];
  readonly quit: boolean;
}

export async function runStepCalls(step: {
  readonly calls: readonly StepCall[];
  readonly step: number;
  readonly truncated: boolean;
  readonly signal: AbortSignal;
  readonly approvals: CallApprovals | undefined;
  /** Runs one call; `callId` is the model's id of it (for the call's permission records). */
  readonly run: (name: string, input: unknown, callId: string) => Promise<ToolCallResult>;
  readonly emit: (event: LoopEvent) => void;
}): Promise<ModelMessage> {
  const { approvals, emit } = step;
  const results: Array<{ call: StepCall; result: ToolCallResult }> = [];
  for (const call of step.calls) {
    emit({ type: 'tool-call', step: step.step, id: call.id, name: call.name, input: call.input });
    let result: ToolCallResult;
    if (step.signal.aborted || approvals?.quit === true) {
      result = {
        isError: true,
        code: 'AGENT_INTERRUPTED',
        text: 'Error AGENT_INTERRUPTED: the run was interrupted before this call ran',
      };
    } else if (step.truncated) {
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
      approvals?.beginCall(call.id);
      result = await step.run(call.name, call.input, call.id);
      const notes = approvals?.takeNotes() ?? [];
      if (notes.length > 0) result = { ...result, text: `${result.text}\n${notes.join('\n')}` };
    }
    results.push({ call, result });
    emit({
      type: 'tool-result',
      step: step.step,
      id: call.id,
      name: call.name,
      isError: result.isError,
      code: result.code ?? null,
      bytes: bytesOf(result.text),
      text: cut(result.text),
    });
  }
  return {
    role: 'tool',
    content: results.map(({ call, result }) => ({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      output: result.isError
        ? { type: 'error-text', value: result.text }
        : { type: 'text', value: result.text },
    })),
  };
}
