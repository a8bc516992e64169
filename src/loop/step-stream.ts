import type {
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
  SharedV3Warning,
} from '@ai-sdk/provider';
import type { AssistantModelMessage } from 'ai';
import type { LoopEvent, LoopUsage } from './events.js';

/**
 * A model's answer, read from the provider's stream parts: the text and reasoning as they come
 * (each an event), the tool calls with their input parsed, the finish reason and usage, and the
 * assistant message the history keeps (what the AI SDK would have made of the same parts).
 */

export interface StepCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The name is not one of the tools, or the input is not JSON: the call gets an error result. */
  readonly invalid: boolean;
  readonly error?: string;
}

export interface StepOutcome {
  readonly assistant: AssistantModelMessage[];
  readonly calls: StepCall[];
  readonly text: string;
  /** The AI SDK's unified reason (stop, length, tool-calls, content-filter, error, other). */
  readonly finishReason: string;
  /** The provider's own (end_turn, pause_turn, refusal…). */
  readonly rawFinishReason: string | undefined;
  readonly usage: LoopUsage;
  readonly warnings: readonly SharedV3Warning[];
}

/** A provider's usage in the loop's terms (absent counts are 0). */
export function loopUsage(usage: LanguageModelV3Usage | undefined): LoopUsage {
  return {
    inputTokens: usage?.inputTokens.total ?? 0,
    outputTokens: usage?.outputTokens.total ?? 0,
    cacheReadTokens: usage?.inputTokens.cacheRead ?? 0,
    cacheWriteTokens: usage?.inputTokens.cacheWrite ?? 0,
  };
}

/** A tool call's input: `""` is `{}`, anything else must be JSON. */
export function parseToolCall(
  part: { readonly toolCallId: string; readonly toolName: string; readonly input: string },
  tools: ReadonlySet<string>,
): StepCall {
  const base = { id: part.toolCallId, name: part.toolName };
  const text = typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
  let input: unknown = text;
  let error: string | undefined;
  try {
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch (cause) {
    error = `its input is not JSON (${cause instanceof Error ? cause.message : String(cause)})`;
  }
  if (!tools.has(part.toolName))
    error = `there is no tool named ${JSON.stringify(part.toolName.slice(0, 100))}; the tools are ${[...tools].join(', ') || 'none'}`;
  return error === undefined
    ? { ...base, input, invalid: false }
    : { ...base, input, invalid: true, error };
}

type Content = AssistantModelMessage['content'] & unknown[];
type Piece = {
  type: 'text' | 'reasoning';
  text: string;
  providerOptions?: SharedV3ProviderMetadata;
};

function withMetadata(piece: Piece, metadata: SharedV3ProviderMetadata | undefined): void {
  if (metadata !== undefined) piece.providerOptions = metadata;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/**
 * Reads one answer's stream to its end. An `error` part or a failed read is thrown (after the
 * stream is released), for the loop to classify; so is an abort.
 */
export async function readStep(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  step: {
    readonly tools: ReadonlySet<string>;
    readonly step: number;
    readonly signal: AbortSignal;
    readonly emit: (event: LoopEvent) => void;
  },
): Promise<StepOutcome> {
  const content: Content = [];
  const open = new Map<string, Piece>();
  const calls: StepCall[] = [];
  let warnings: readonly SharedV3Warning[] = [];
  let text = '';
  let finishReason = 'other';
  let rawFinishReason: string | undefined;
  let usage: LoopUsage = loopUsage(undefined);
  let failure: unknown;
  const start = (kind: Piece['type'], id: string, metadata?: SharedV3ProviderMetadata) => {
    const piece: Piece = { type: kind, text: '' };
    withMetadata(piece, metadata);
    open.set(`${kind}:${id}`, piece);
    content.push(piece);
    return piece;
  };
  const reader = stream.getReader();
  try {
    while (failure === undefined) {
      const next = await reader.read();
      if (next.done) break;
      const part = next.value;
      switch (part.type) {
        case 'stream-start':
          warnings = part.warnings;
          break;
        case 'text-start':
        case 'reasoning-start':
          start(part.type === 'text-start' ? 'text' : 'reasoning', part.id, part.providerMetadata);
          break;
        case 'text-delta':
        case 'reasoning-delta': {
          const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
          // A delta without its start still counts (some providers skip the start).
          const piece = open.get(`${kind}:${part.id}`) ?? start(kind, part.id);
          piece.text += part.delta;
          withMetadata(piece, part.providerMetadata);
          if (kind === 'text') text += part.delta;
          if (part.delta !== '') step.emit({ type: kind, step: step.step, text: part.delta });
          break;
        }
        case 'text-end':
        case 'reasoning-end': {
          const key = `${part.type === 'text-end' ? 'text' : 'reasoning'}:${part.id}`;
          const piece = open.get(key);
          if (piece !== undefined) withMetadata(piece, part.providerMetadata);
          open.delete(key);
          break;
        }
        case 'tool-call': {
          const call = parseToolCall(part, step.tools);
          calls.push(call);
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.name,
            input:
              call.invalid && (typeof call.input !== 'object' || call.input === null)
                ? {}
                : call.input,
            ...(part.providerExecuted === undefined
              ? {}
              : { providerExecuted: part.providerExecuted }),
            ...(part.providerMetadata === undefined
              ? {}
              : { providerOptions: part.providerMetadata }),
          });
          break;
        }
        case 'file':
          content.push({
            type: 'file',
            data: typeof part.data === 'string' ? part.data : base64(part.data),
            mediaType: part.mediaType,
            ...(part.providerMetadata === undefined
              ? {}
              : { providerOptions: part.providerMetadata }),
          });
          break;
        case 'finish':
          finishReason = part.finishReason.unified;
          rawFinishReason = part.finishReason.raw;
          usage = loopUsage(part.usage);
          break;
        case 'error':
          failure = part.error;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    // A broken answer: the rest of the stream (and its connection) is let go.
    if (failure === undefined) reader.releaseLock();
    else reader.cancel().catch(() => {});
  }
  if (failure === undefined && step.signal.aborted)
    failure = Object.assign(new Error('aborted'), { name: 'AbortError' });
  if (failure !== undefined) throw failure;
  const kept = content.filter((part) => part.type !== 'text' || part.text !== '');
  return {
    assistant: kept.length === 0 ? [] : [{ role: 'assistant', content: kept }],
    calls,
    text,
    finishReason,
    rawFinishReason,
    usage,
    warnings,
  };
}
