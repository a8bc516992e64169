import type { JsonSchemaObject, SkillRuntime, ToolCallResult } from '../../index.js';

/** What the adapter needs of a runtime: its tool definitions and a way to call them. */
export type SkillToolRuntime = Pick<SkillRuntime, 'tools' | 'callTool'>;

/** A function's parameters; a type alias (not an interface) so that it fits the SDK's indexed type. */
export type OpenAIParameters = {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
};

export interface RunOpenAIToolCallsOptions {
  /**
   * What to do with a call of a tool the runtime does not offer: answer it with an error
   * (default), or skip it so that the host answers it with its own tools.
   */
  readonly otherTools?: 'error' | 'skip';
}

/** The JSON Schema of a tool's input, as a fresh mutable object the SDK types accept. */
export function openaiParameters(schema: JsonSchemaObject): OpenAIParameters {
  return {
    type: 'object',
    properties: { ...schema.properties },
    required: [...schema.required],
    additionalProperties: false,
  };
}

/** The tool names whose calls are answered: undefined answers every call. */
export function answeredNames(
  runtime: SkillToolRuntime,
  options: RunOpenAIToolCallsOptions,
): ReadonlySet<string> | undefined {
  if (options.otherTools !== 'skip') return undefined;
  return new Set<string>(
    runtime.tools().flatMap((definition) => [definition.name, ...definition.deprecatedNames]),
  );
}

const MAX_REASON = 200;

/**
 * Calls a tool with arguments as the model wrote them: JSON text, which a model does not always
 * get right. Text that does not parse is an error result the model can read, never a throw.
 */
export async function callWithArguments(
  runtime: SkillToolRuntime,
  name: string,
  text: unknown,
  callId?: string,
): Promise<ToolCallResult> {
  const parsed = parseJson(text);
  if ('input' in parsed)
    return runtime.callTool(name, parsed.input, callId === undefined ? {} : { callId });
  return {
    isError: true,
    code: 'TOOL_INPUT_INVALID',
    text: `Error TOOL_INPUT_INVALID: the arguments of ${JSON.stringify(String(name).slice(0, 100))} are not valid JSON (${parsed.reason.slice(0, MAX_REASON)})`,
  };
}

function parseJson(text: unknown): { readonly input: unknown } | { readonly reason: string } {
  if (typeof text !== 'string') return { reason: 'the arguments are not text' };
  try {
    return { input: JSON.parse(text) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}
