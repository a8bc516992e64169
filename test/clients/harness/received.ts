import type { RecordedRequest } from '../../helpers/model-servers.js';

/**
 * What the model was sent: read out of the requests the fake model API recorded, in each API's
 * shape, as the text the model would read.
 */

export interface Received {
  /** The tool result as the model reads it. */
  readonly text: string;
  /** Whether the client marked it an error (where the API can say so). */
  readonly isError: boolean;
  /** Which request (0-based) first carried it. */
  readonly request: number;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON.
type Json = any;

function textOfBlocks(content: Json): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((block: Json) => (typeof block?.text === 'string' ? block.text : JSON.stringify(block)))
    .join('\n');
}

function firstMatch<T>(
  requests: readonly RecordedRequest[],
  find: (body: Json) => T | undefined,
): { value: T; request: number } | undefined {
  for (const [index, request] of requests.entries()) {
    const value = find(request.body);
    if (value !== undefined) return { value, request: index };
  }
  return undefined;
}

/** The Messages API: the `tool_result` block answering `toolUseId`. */
export function anthropicToolResult(
  requests: readonly RecordedRequest[],
  toolUseId: string,
): Received | undefined {
  const found = firstMatch(requests, (body) => {
    for (const message of body?.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      const block = message.content.find(
        (candidate: Json) =>
          candidate?.type === 'tool_result' && candidate.tool_use_id === toolUseId,
      );
      if (block !== undefined) return block;
    }
    return undefined;
  });
  if (found === undefined) return undefined;
  return {
    text: textOfBlocks(found.value.content),
    isError: found.value.is_error === true,
    request: found.request,
  };
}

/** The Responses API: the `function_call_output` answering `callId`. */
export function responsesToolOutput(
  requests: readonly RecordedRequest[],
  callId: string,
): Received | undefined {
  const found = firstMatch(requests, (body) =>
    (body?.input ?? []).find(
      (item: Json) => item?.type === 'function_call_output' && item.call_id === callId,
    ),
  );
  if (found === undefined) return undefined;
  return { text: textOfBlocks(found.value.output), isError: false, request: found.request };
}

/**
 * Gemini: the `functionResponse` answering the `n`th call (1-based) of the function `name`; its
 * `response` is an object (Gemini CLI sends `{output}` or `{error}`), given as its output or error
 * text, else as JSON.
 */
export function geminiFunctionResponse(
  requests: readonly RecordedRequest[],
  name: string,
  n = 1,
): Received | undefined {
  const found = firstMatch(requests, (body) => {
    const parts = (body?.contents ?? []).flatMap((content: Json) => content?.parts ?? []);
    return parts.filter((part: Json) => part?.functionResponse?.name === name)[n - 1]
      ?.functionResponse;
  });
  if (found === undefined) return undefined;
  const response = found.value.response ?? {};
  const text =
    typeof response.output === 'string'
      ? response.output
      : typeof response.error === 'string'
        ? response.error
        : JSON.stringify(response);
  return { text, isError: typeof response.error === 'string', request: found.request };
}

/** Everything the model was sent in the first request (system prompt, tools, messages), as JSON. */
export function firstRequestText(requests: readonly RecordedRequest[]): string {
  return JSON.stringify(requests[0]?.body ?? null);
}

/** The tool names a request offered the model, in the API's shape (Codex's namespaces flattened). */
export function offeredTools(request: RecordedRequest | undefined): string[] {
  const body: Json = request?.body ?? {};
  if (request?.api === 'gemini')
    return (body.tools ?? []).flatMap((tool: Json) =>
      (tool.functionDeclarations ?? []).map((declaration: Json) => declaration.name),
    );
  return (body.tools ?? []).flatMap((tool: Json) =>
    tool.type === 'namespace'
      ? (tool.tools ?? []).map((inner: Json) => `${tool.name}/${inner.name}`)
      : [tool.name],
  );
}
