import type { JSONSchema7, LanguageModelUsage, ModelMessage, SystemModelMessage, Tool } from 'ai';
import type { ToolDefinition } from '../runtime/tools.js';
import { type LoopEvent, type LoopUsage, ZERO_USAGE } from './events.js';
import type { ModelHandle } from './providers.js';

/**
 * One model request of the agent loop: the tools in the AI SDK's shape (without `execute`), and
 * the request streamed into text events, tool calls, the usage and the assistant message.
 */

export interface StepCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly invalid: boolean;
  readonly error?: string;
}

export interface StepOutcome {
  readonly assistant: ModelMessage[];
  readonly calls: StepCall[];
  readonly text: string;
  readonly finishReason: string;
  readonly rawFinishReason: string | undefined;
  readonly usage: LoopUsage;
}

export type AiModule = typeof import('ai');
let aiModule: Promise<AiModule> | undefined;
/** The AI SDK, loaded on the first model call. */
export function loadAi(): Promise<AiModule> {
  aiModule ??= import('ai');
  return aiModule;
}

export const ANTHROPIC_CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

function usageOf(usage: LanguageModelUsage | undefined): LoopUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}

function toJsonSchema7(definition: ToolDefinition): JSONSchema7 {
  return {
    type: 'object',
    properties: { ...definition.inputSchema.properties } as JSONSchema7['properties'],
    required: [...definition.inputSchema.required],
    additionalProperties: false,
  };
}

/** The tools as the AI SDK takes them: no `execute`, so the loop runs every call itself. */
export function sdkTools(
  ai: AiModule,
  definitions: readonly ToolDefinition[],
): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  definitions.forEach((definition, index) => {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: ai.jsonSchema(toJsonSchema7(definition)),
      // The prompt cache's second breakpoint: everything up to the last tool.
      ...(index === definitions.length - 1 ? { providerOptions: ANTHROPIC_CACHE } : {}),
    } as Tool;
  });
  return tools;
}

/** One model request, streamed: text as it comes, then the calls, the usage and the assistant message. */
export async function requestStep(
  ai: AiModule,
  request: {
    readonly model: ModelHandle;
    readonly system: SystemModelMessage;
    readonly messages: readonly ModelMessage[];
    readonly tools: Record<string, Tool>;
    readonly signal: AbortSignal;
    readonly step: number;
    readonly emit: (event: LoopEvent) => void;
    readonly maxOutputTokens?: number;
  },
): Promise<StepOutcome> {
  const language = await request.model.load();
  const result = ai.streamText({
    model: language,
    system: request.system,
    messages: [...request.messages],
    ...(Object.keys(request.tools).length === 0 ? {} : { tools: request.tools }),
    maxRetries: 0,
    abortSignal: request.signal,
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    // Errors are read from the stream; nothing is printed.
    onError: () => {},
  });
  const calls: StepCall[] = [];
  let text = '';
  let finishReason = 'unknown';
  let rawFinishReason: string | undefined;
  let usage = ZERO_USAGE;
  let failure: unknown;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        request.emit({ type: 'text', step: request.step, text: part.text });
        break;
      case 'reasoning-delta':
        request.emit({ type: 'reasoning', step: request.step, text: part.text });
        break;
      case 'tool-call': {
        const call = part as unknown as { invalid?: boolean; error?: unknown };
        calls.push({
          id: part.toolCallId,
          name: part.toolName,
          input: part.input,
          invalid: call.invalid === true,
          ...(call.error === undefined
            ? {}
            : { error: call.error instanceof Error ? call.error.message : String(call.error) }),
        });
        break;
      }
      case 'finish-step':
        finishReason = part.finishReason;
        rawFinishReason = part.rawFinishReason;
        usage = usageOf(part.usage);
        break;
      case 'error':
        failure ??= part.error;
        break;
      case 'abort':
        failure ??= Object.assign(new Error('aborted'), { name: 'AbortError' });
        break;
      default:
        break;
    }
  }
  if (failure !== undefined) throw failure;
  const response = await result.response;
  const assistant = response.messages.filter((message) => message.role === 'assistant');
  return { assistant, calls, text, finishReason, rawFinishReason, usage };
}
