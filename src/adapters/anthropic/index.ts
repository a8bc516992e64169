/**
 * skillhost/anthropic — the runtime's model-facing tools for the Anthropic Messages API.
 * Typed by shape only: it loads nothing from `@anthropic-ai/sdk`, whose objects fit these types.
 */
import type { SkillRuntime, ToolCallResult } from '../../index.js';

/** What the adapter needs of a runtime: its tool definitions and a way to call them. */
export type SkillToolRuntime = Pick<SkillRuntime, 'tools' | 'callTool'>;

/** A tool's input schema; a type alias (not an interface) so that it fits the SDK's indexed type. */
export type AnthropicInputSchema = {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
};

/** A tool definition for `messages.create({ tools })`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
}

/** Any content block of an assistant message; only `tool_use` blocks are acted on. */
export interface AnthropicContentBlockLike {
  readonly type: string;
}

/** A `tool_use` block of an assistant message. */
export interface AnthropicToolUseLike extends AnthropicContentBlockLike {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A `tool_result` block for the next user message. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

export interface RunAnthropicToolUsesOptions {
  /**
   * What to do with a `tool_use` of a tool the runtime does not offer: answer it with an error
   * result (default), or skip it so that the host answers it with its own tools.
   */
  readonly otherTools?: 'error' | 'skip';
}

/**
 * The runtime's tools as Anthropic tool definitions (none without a usable skill).
 *
 * @example const message = await client.messages.create({ model, max_tokens: 1024, tools: anthropicTools(runtime), messages });
 */
export function anthropicTools(runtime: SkillToolRuntime): AnthropicTool[] {
  return runtime.tools().map((definition) => ({
    name: definition.name,
    description: definition.description,
    input_schema: {
      type: 'object',
      properties: { ...definition.inputSchema.properties },
      required: [...definition.inputSchema.required],
      additionalProperties: false,
    },
  }));
}

function isToolUse(block: AnthropicContentBlockLike): block is AnthropicToolUseLike {
  const candidate = block as Partial<AnthropicToolUseLike>;
  return (
    block.type === 'tool_use' &&
    typeof candidate.id === 'string' &&
    typeof candidate.name === 'string'
  );
}

function toolResult(id: string, result: ToolCallResult): AnthropicToolResult {
  return { type: 'tool_result', tool_use_id: id, content: result.text, is_error: result.isError };
}

/**
 * Executes the `tool_use` blocks of an assistant message's content through the runtime and
 * returns their `tool_result` blocks in the same order, ready to be the next user message.
 *
 * @example messages.push({ role: 'user', content: await runAnthropicToolUses(runtime, message.content) });
 */
export async function runAnthropicToolUses(
  runtime: SkillToolRuntime,
  content: readonly AnthropicContentBlockLike[],
  options: RunAnthropicToolUsesOptions = {},
): Promise<AnthropicToolResult[]> {
  const offered =
    options.otherTools === 'skip'
      ? new Set<string>(
          runtime.tools().flatMap((definition) => [definition.name, ...definition.deprecatedNames]),
        )
      : undefined;
  const results: AnthropicToolResult[] = [];
  // One after another, never in parallel: a script run may rely on an activation before it.
  for (const block of content) {
    if (!isToolUse(block)) continue;
    if (offered !== undefined && !offered.has(block.name)) continue;
    results.push(
      toolResult(block.id, await runtime.callTool(block.name, block.input, { callId: block.id })),
    );
  }
  return results;
}
