/**
 * skillhost/ai-sdk — the runtime's model-facing tools as an AI SDK tool set. Every call goes
 * through `runtime.callTool`, so the runtime's policy, sandbox and audit trail apply unchanged.
 */
import { type JSONSchema7, jsonSchema, type Tool, tool } from 'ai';
import type {
  Code,
  JsonSchemaObject,
  SkillRuntime,
  ToolCallResult,
  ToolDefinition,
} from '../../index.js';

/** What the adapter needs of a runtime: its tool definitions and a way to call them. */
export type SkillToolRuntime = Pick<SkillRuntime, 'tools' | 'callTool'>;

export interface SkillToolsOptions {
  /**
   * Throw a `SkillToolError` for an error result, so that the AI SDK reports a `tool-error` part
   * (the model still reads the message). Default false: an error is an ordinary result.
   */
  readonly throwOnError?: boolean;
  /** The AI SDK's `needsApproval` for each tool: true asks the user before the call runs. */
  readonly needsApproval?: (
    toolName: ToolDefinition['name'],
    input: unknown,
  ) => boolean | PromiseLike<boolean>;
}

/** The tool set: the runtime's tools by name, each returning the runtime's structured result. */
export type SkillToolSet = Record<string, Tool<unknown, ToolCallResult>>;

/** An error result of a skill tool, thrown when `throwOnError` is set. */
export class SkillToolError extends Error {
  readonly toolName: string;
  /** The runtime's error code; none for a script killed by a signal. */
  readonly code: Code | undefined;
  readonly result: ToolCallResult;

  constructor(toolName: string, result: ToolCallResult) {
    super(result.text);
    this.name = 'SkillToolError';
    this.toolName = toolName;
    this.code = result.code;
    this.result = result;
  }
}

function toJsonSchema7(schema: JsonSchemaObject): JSONSchema7 {
  return {
    type: 'object',
    // The runtime's property schemas are plain JSON Schema; JSONSchema7 only types them closer.
    properties: { ...schema.properties } as JSONSchema7['properties'],
    required: [...schema.required],
    additionalProperties: false,
  };
}

/**
 * The runtime's tools as an AI SDK `ToolSet`: the model reads each result's text (an error
 * result as error text), the application gets the structured result as the tool output.
 *
 * @example const result = await generateText({ model, tools: skillTools(runtime), stopWhen: stepCountIs(8), prompt });
 */
export function skillTools(
  runtime: SkillToolRuntime,
  options: SkillToolsOptions = {},
): SkillToolSet {
  const tools: SkillToolSet = {};
  const { needsApproval, throwOnError = false } = options;
  for (const definition of runtime.tools()) {
    tools[definition.name] = tool<unknown, ToolCallResult>({
      description: definition.description,
      inputSchema: jsonSchema(toJsonSchema7(definition.inputSchema)),
      execute: async (input, { toolCallId }) => {
        // The AI SDK starts a step's calls at once; the runtime takes them one at a time, in
        // the order they start, so a run may rely on the activation before it.
        const result = await runtime.callTool(definition.name, input, { callId: toolCallId });
        if (result.isError && throwOnError) throw new SkillToolError(definition.name, result);
        return result;
      },
      toModelOutput: ({ output }) => ({
        type: output.isError ? 'error-text' : 'text',
        value: output.text,
      }),
      ...(needsApproval === undefined
        ? {}
        : { needsApproval: (input: unknown) => needsApproval(definition.name, input) }),
    });
  }
  return tools;
}
