import {
  answeredNames,
  callWithArguments,
  type OpenAIParameters,
  openaiParameters,
  type RunOpenAIToolCallsOptions,
  type SkillToolRuntime,
} from './shared.js';

/** A function tool for `chat.completions.create({ tools })`. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: OpenAIParameters };
}

/** A tool call of an assistant message: a function call, or a custom tool's call. */
export interface OpenAIToolCallLike {
  readonly id: string;
  readonly type: string;
  readonly function?: { readonly name: string; readonly arguments: string };
  readonly custom?: { readonly name: string; readonly input: string };
}

/** An assistant message of a chat completion (`completion.choices[0].message`). */
export interface OpenAIChatMessageLike {
  readonly tool_calls?: readonly OpenAIToolCallLike[] | null | undefined;
}

/** A tool message answering one tool call. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/**
 * The runtime's tools as Chat Completions function tools (none without a usable skill).
 *
 * @example const completion = await client.chat.completions.create({ model, tools: openaiTools(runtime), messages });
 */
export function openaiTools(runtime: SkillToolRuntime): OpenAIChatTool[] {
  return runtime.tools().map((definition) => ({
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: openaiParameters(definition.inputSchema),
    },
  }));
}

/**
 * Executes the tool calls of an assistant message through the runtime and returns one tool
 * message per call, in order; arguments that are not valid JSON give an error message.
 *
 * @example messages.push(message, ...(await runOpenAIToolCalls(runtime, message)));
 */
export async function runOpenAIToolCalls(
  runtime: SkillToolRuntime,
  message: OpenAIChatMessageLike,
  options: RunOpenAIToolCallsOptions = {},
): Promise<OpenAIToolMessage[]> {
  const offered = answeredNames(runtime, options);
  const messages: OpenAIToolMessage[] = [];
  // One after another, never in parallel: a script run may rely on an activation before it.
  for (const call of message.tool_calls ?? []) {
    const name = call.function?.name ?? call.custom?.name ?? '';
    if (offered !== undefined && !offered.has(name)) continue;
    // The runtime offers no custom (free-text) tools: such a call reaches it as is and is refused.
    const result =
      call.function === undefined
        ? await runtime.callTool(name, call.custom?.input, { callId: call.id })
        : await callWithArguments(runtime, name, call.function.arguments, call.id);
    messages.push({ role: 'tool', tool_call_id: call.id, content: result.text });
  }
  return messages;
}
