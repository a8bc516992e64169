import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A local stand-in for the model APIs, on 127.0.0.1: it speaks just enough of the Anthropic
 * Messages API and the OpenAI Chat Completions and Responses APIs for the real SDK clients to run
 * a scripted conversation, records every request, and, like the real services, refuses a
 * conversation that leaves a tool call without its result.
 */

/** The protocols, by the path they are served at. */
export type ModelApi = 'anthropic' | 'chat' | 'responses';

const PATHS: Readonly<Record<string, ModelApi>> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
};

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  /** The tool input; the OpenAI APIs receive it JSON-encoded. */
  readonly input?: unknown;
  /** The arguments exactly as the model writes them (OpenAI APIs), e.g. text that is not JSON. */
  readonly rawArguments?: string;
}

/** One model turn: tool calls, or a final answer. */
export type ScriptedTurn =
  | { readonly toolCalls: readonly ScriptedToolCall[] }
  | { readonly text: string };

export interface RecordedRequest {
  readonly api: ModelApi;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: a request body is arbitrary JSON that tests dig into.
  readonly body: any;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`: the Anthropic client's baseURL (the OpenAI client's is `${url}/v1`). */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const open = new Set<ModelServer>();

afterEach(async () => {
  await Promise.all([...open].map((server) => server.close()));
});

const MAX_BODY = 16 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    // Both SDKs honour it: a scripted server's failure is never worth a retry.
    'x-should-retry': 'false',
  });
  response.end(text);
}

function errorBody(api: ModelApi, message: string): Json {
  return api === 'anthropic'
    ? { type: 'error', error: { type: 'invalid_request_error', message } }
    : { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/** The ids of tool calls that are not answered right after, as each API demands. */
function unansweredCalls(api: ModelApi, body: Json): string[] {
  const missing: string[] = [];
  if (api === 'anthropic') {
    const messages = list(body.messages);
    messages.forEach((message, index) => {
      if (message.role !== 'assistant') return;
      const next = messages[index + 1];
      const answered = new Set(
        list(next?.role === 'user' ? next.content : []).map((block) => block.tool_use_id),
      );
      for (const block of list(message.content)) {
        if (block.type === 'tool_use' && !answered.has(block.id)) missing.push(String(block.id));
      }
    });
  } else if (api === 'chat') {
    const messages = list(body.messages);
    messages.forEach((message, index) => {
      const answered = new Set<unknown>();
      for (const next of messages.slice(index + 1)) {
        if (next.role !== 'tool') break;
        answered.add(next.tool_call_id);
      }
      for (const call of list(message.tool_calls)) {
        if (!answered.has(call.id)) missing.push(String(call.id));
      }
    });
  } else {
    const items = list(body.input);
    const answered = new Set(
      items.filter((item) => item.type === 'function_call_output').map((item) => item.call_id),
    );
    for (const item of items) {
      if (item.type === 'function_call' && !answered.has(item.call_id))
        missing.push(String(item.call_id));
    }
  }
  return missing;
}

function missingMessage(api: ModelApi, ids: readonly string[]): string {
  if (api === 'anthropic')
    return `tool_use ids were found without tool_result blocks immediately after: ${ids.join(', ')}`;
  if (api === 'chat')
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${ids.join(', ')}`;
  return `No tool output found for function call ${ids.join(', ')}.`;
}

function argumentsOf(call: ScriptedToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.input ?? {});
}

function anthropicReply(turn: ScriptedTurn, number: number, model: unknown): Json {
  const calls = 'toolCalls' in turn;
  return {
    id: `msg_${number}`,
    type: 'message',
    role: 'assistant',
    model,
    content: calls
      ? turn.toolCalls.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: call.input ?? {},
        }))
      : [{ type: 'text', text: turn.text }],
    stop_reason: calls ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function chatReply(turn: ScriptedTurn, number: number, model: unknown): Json {
  const calls = 'toolCalls' in turn;
  return {
    id: `chatcmpl-${number}`,
    object: 'chat.completion',
    created: 1_700_000_000 + number,
    model,
    choices: [
      {
        index: 0,
        message: calls
          ? {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: turn.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: argumentsOf(call) },
              })),
            }
          : { role: 'assistant', content: turn.text, refusal: null },
        finish_reason: calls ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function responsesReply(turn: ScriptedTurn, number: number, body: Json): Json {
  return {
    id: `resp_${number}`,
    object: 'response',
    created_at: 1_700_000_000 + number,
    model: body.model,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    tool_choice: 'auto',
    tools: body.tools ?? [],
    output:
      'toolCalls' in turn
        ? turn.toolCalls.map((call, index) => ({
            type: 'function_call',
            id: `fc_${number}_${index}`,
            call_id: call.id,
            name: call.name,
            arguments: argumentsOf(call),
            status: 'completed',
          }))
        : [
            {
              type: 'message',
              id: `msg_${number}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: turn.text, annotations: [] }],
            },
          ],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    },
  };
}

function reply(api: ModelApi, turn: ScriptedTurn, number: number, body: Json): Json {
  if (api === 'anthropic') return anthropicReply(turn, number, body.model);
  if (api === 'chat') return chatReply(turn, number, body.model);
  return responsesReply(turn, number, body);
}

/**
 * Starts a model server that answers each API with its scripted turns, in order (closed after
 * the test).
 *
 * @example const server = await startModelServer({ anthropic: [{ toolCalls: [call] }, { text: 'Done.' }] });
 */
export async function startModelServer(
  script: Partial<Record<ModelApi, readonly ScriptedTurn[]>>,
): Promise<ModelServer> {
  const queues = new Map<ModelApi, ScriptedTurn[]>(
    Object.entries(script).map(([api, turns]) => [api as ModelApi, [...turns]]),
  );
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const api = PATHS[path];
      if (request.method !== 'POST' || api === undefined) {
        send(response, 404, { error: { message: `No route for ${request.method} ${path}` } });
        return;
      }
      let body: Json;
      try {
        body = JSON.parse(await readBody(request)) as Json;
      } catch {
        send(response, 400, errorBody(api, 'The request body is not valid JSON.'));
        return;
      }
      requests.push({ api, headers: request.headers, body });
      const missing = unansweredCalls(api, body);
      if (missing.length > 0) {
        send(response, 400, errorBody(api, missingMessage(api, missing)));
        return;
      }
      const turn = queues.get(api)?.shift();
      if (turn === undefined) {
        send(response, 500, errorBody(api, `The script has no more ${api} turns.`));
        return;
      }
      send(response, 200, reply(api, turn, requests.length, body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handle: ModelServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(handle);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(handle);
  return handle;
}
