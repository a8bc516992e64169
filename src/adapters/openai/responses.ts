import {
  answeredNames,
  callWithArguments,
  type OpenAIParameters,
  openaiParameters,
  type RunOpenAIToolCallsOptions,
  type SkillToolRuntime,
} from './shared.js';

/** A function tool for `responses.create({ tools })`. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: OpenAIParameters;
  strict: false;
}

/** Any output item of a response; only `function_call` items are acted on. */
export interface OpenAIResponseItemLike {
  readonly type: string;
}

/** A `function_call` output item. */
export interface OpenAIFunctionCallLike extends OpenAIResponseItemLike {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A `function_call_output` input item answering one function call. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/**
 * The runtime's tools as Responses API function tools (none without a usable skill).
 *
 * @example const response = await client.responses.create({ model, tools: openaiResponsesTools(runtime), input });
 */
export function openaiResponsesTools(runtime: SkillToolRuntime): OpenAIResponsesTool[] {
  return runtime.tools().map((definition) => ({
    type: 'function',
    name: definition.name,
    description: definition.description,
    parameters: openaiParameters(definition.inputSchema),
    // Strict mode needs every property required; `args` and `limit` are optional.
    strict: false,
  }));
}

function isFunctionCall(item: OpenAIResponseItemLike): item is OpenAIFunctionCallLike {
  const candidate = item as Partial<OpenAIFunctionCallLike>;
  return (
    item.type === 'function_call' &&
    typeof candidate.call_id === 'string' &&
    typeof candidate.name === 'string'
  );
}

/**
 * Executes the `function_call` items of a response's output through the runtime and returns
 * their `function_call_output` items in order; arguments that are not valid JSON give an error.
 *
 * @example input.push(...response.output, ...(await runOpenAIFunctionCalls(runtime, response.output)));
 */
export async function runOpenAIFunctionCalls(
  runtime: SkillToolRuntime,
  output: readonly OpenAIResponseItemLike[],
  options: RunOpenAIToolCallsOptions = {},
): Promise<OpenAIFunctionCallOutput[]> {
  const offered = answeredNames(runtime, options);
  const outputs: OpenAIFunctionCallOutput[] = [];
  // One after another, never in parallel: a script run may rely on an activation before it.
  for (const item of output) {
    if (!isFunctionCall(item)) continue;
    if (offered !== undefined && !offered.has(item.name)) continue;
    const result = await callWithArguments(runtime, item.name, item.arguments, item.call_id);
    outputs.push({ type: 'function_call_output', call_id: item.call_id, output: result.text });
  }
  return outputs;
}
