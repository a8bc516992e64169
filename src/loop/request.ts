import type {
  JSONSchema7,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  SharedV3Warning,
} from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import type { ToolDefinition } from '../runtime/tools.js';
import type { LoopEvent } from './events.js';
import { modelPrompt } from './model-prompt.js';
import type { ModelHandle } from './providers.js';
import { readStep, type StepOutcome } from './step-stream.js';

/**
 * One model request of the agent loop, made on the provider's model itself (`doStream`): the
 * AI SDK's providers still speak each API (the HTTP stream, its tool calls, its quirks), and the
 * loop does the rest, so a step costs the provider's work and little more.
 */

export type { StepCall, StepOutcome } from './step-stream.js';

export const ANTHROPIC_CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

function toJsonSchema7(definition: ToolDefinition): JSONSchema7 {
  return {
    type: 'object',
    properties: { ...definition.inputSchema.properties } as JSONSchema7['properties'],
    required: [...definition.inputSchema.required],
    additionalProperties: false,
  };
}

/** The tools of a run as a provider takes them, made once: the loop runs every call itself. */
export interface ModelTools {
  readonly tools: readonly LanguageModelV3FunctionTool[];
  readonly names: ReadonlySet<string>;
}

export function modelTools(definitions: readonly ToolDefinition[]): ModelTools {
  const tools = definitions.map(
    (definition, index): LanguageModelV3FunctionTool => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      inputSchema: toJsonSchema7(definition),
      // The prompt cache's second breakpoint: everything up to the last tool.
      ...(index === definitions.length - 1 ? { providerOptions: ANTHROPIC_CACHE } : {}),
    }),
  );
  return { tools, names: new Set(definitions.map((definition) => definition.name)) };
}

/** What a provider said it ignored or bent (a setting the model does not take), as one line. */
export function warningText(warning: SharedV3Warning): string {
  if (warning.type === 'other') return warning.message;
  const feature = `${warning.type === 'unsupported' ? 'not supported' : 'used in a compatibility mode'}: ${warning.feature}`;
  return warning.details === undefined ? feature : `${feature} (${warning.details})`;
}

/** One model request, streamed: text as it comes, then the calls, the usage and the assistant message. */
export async function requestStep(request: {
  readonly model: ModelHandle;
  readonly system: { readonly content: string; readonly providerOptions?: typeof ANTHROPIC_CACHE };
  readonly messages: readonly ModelMessage[];
  readonly tools: ModelTools;
  readonly signal: AbortSignal;
  readonly step: number;
  readonly emit: (event: LoopEvent) => void;
  readonly maxOutputTokens?: number;
}): Promise<StepOutcome> {
  const language = await request.model.load();
  const options: LanguageModelV3CallOptions = {
    prompt: modelPrompt(request.system, request.messages),
    ...(request.tools.tools.length === 0
      ? {}
      : { tools: [...request.tools.tools], toolChoice: { type: 'auto' } }),
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    abortSignal: request.signal,
  };
  const { stream } = await language.doStream(options);
  return readStep(stream, {
    tools: request.tools.names,
    step: request.step,
    signal: request.signal,
    emit: request.emit,
  });
}
