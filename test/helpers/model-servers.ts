import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A local stand-in for the model APIs, on 127.0.0.1: it speaks just enough of the Anthropic
 * Messages API, the OpenAI Chat Completions and Responses APIs and Gemini's `generateContent`
 * for the real SDK clients and the real command-line agents to run a scripted conversation,
 * streamed (server-sent events) when the client asks for a stream. It records every request,
 * and, like the real services, refuses a conversation that leaves a tool call without its result.
 */

/** The protocols, by the path they are served at. */
export type ModelApi = 'anthropic' | 'chat' | 'responses' | 'gemini';

const PATHS: Readonly<Record<string, ModelApi>> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
};

/** Gemini's `/v1beta/models/MODEL:generateContent` and `:streamGenerateContent`. */
const GEMINI_PATH = /^\/v1(?:beta)?\/models\/[^/:]+:(generateContent|streamGenerateContent)$/;

function routeOf(path: string): ModelApi | undefined {
  return PATHS[path] ?? (GEMINI_PATH.test(path) ? 'gemini' : undefined);
}

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  /** The Responses API's tool namespace (Codex offers each MCP server's tools as one). */
  readonly namespace?: string;
  /** The tool input; the OpenAI APIs receive it JSON-encoded. */
  readonly input?: unknown;
  /** The arguments exactly as the model writes them (OpenAI APIs), e.g. text that is not JSON. */
  readonly rawArguments?: string;
}

/** An API failure as the service sends it: an HTTP status, the API's error type and its message. */
export interface ScriptedFailure {
  readonly status: number;
  /** The API's error type, e.g. `rate_limit_error`, `overloaded_error`, `invalid_request_error`. */
  readonly type: string;
  readonly message: string;
}

/**
 * One model turn: tool calls, or a final answer; or a model that never answers (`hang`: the
 * request stays open until the server closes), to interrupt a client in the middle of a turn;
 * or a failure of the API (`fail`, answered with its status and never worth a retry).
 */
export type ScriptedTurn =
  | { readonly toolCalls: readonly ScriptedToolCall[] }
  | { readonly text: string }
  | { readonly hang: true }
  | { readonly fail: ScriptedFailure };

/** A turn that answers. */
type AnsweringTurn = Exclude<
  ScriptedTurn,
  { readonly hang: true } | { readonly fail: ScriptedFailure }
>;

export interface RecordedRequest {
  readonly api: ModelApi;
  /** The path and query, e.g. `/v1/messages?beta=true`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: a request body is arbitrary JSON that tests dig into.
  readonly body: any;
}

/** A request to no API the server speaks (answered 404), recorded all the same. */
export interface UnroutedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`: the Anthropic client's baseURL (the OpenAI client's is `${url}/v1`). */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  readonly unrouted: readonly UnroutedRequest[];
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /**
   * A listening socket to serve on instead of a fresh one on 127.0.0.1 (one bound inside a
   * loopback-only network namespace, say), with its port.
   */
  readonly listen?: { readonly handle: Server; readonly port: number };
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

/** The API's error body; `type` is the API's error type (Gemini's status, e.g. `RESOURCE_EXHAUSTED`). */
function errorBody(api: ModelApi, message: string, failure?: ScriptedFailure): Json {
  if (api === 'anthropic')
    return { type: 'error', error: { type: failure?.type ?? 'invalid_request_error', message } };
  if (api === 'gemini')
    return {
      error: {
        code: failure?.status ?? 400,
        message,
        status: failure?.type ?? 'INVALID_ARGUMENT',
      },
    };
  return {
    error: { message, type: failure?.type ?? 'invalid_request_error', param: null, code: null },
  };
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
  } else if (api === 'gemini') {
    const contents = list(body.contents);
    contents.forEach((content, index) => {
      if (content.role !== 'model') return;
      const next = contents[index + 1];
      const answered = list(next?.role === 'user' ? next.parts : [])
        .map((part) => String((part.functionResponse as Json | undefined)?.name ?? ''))
        .filter((name) => name !== '');
      for (const part of list(content.parts)) {
        const call = part.functionCall as Json | undefined;
        if (call === undefined) continue;
        const at = answered.indexOf(String(call.name));
        if (at === -1) missing.push(String(call.name));
        else answered.splice(at, 1);
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
  if (api === 'gemini')
    return `Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn. Unanswered: ${ids.join(', ')}`;
  return `No tool output found for function call ${ids.join(', ')}.`;
}

function argumentsOf(call: ScriptedToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.input ?? {});
}

function anthropicReply(turn: AnsweringTurn, number: number, model: unknown): Json {
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

function chatReply(turn: AnsweringTurn, number: number, model: unknown): Json {
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

function responsesReply(turn: AnsweringTurn, number: number, body: Json): Json {
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
            ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
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

function geminiReply(turn: AnsweringTurn, model: string): Json {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts:
            'toolCalls' in turn
              ? turn.toolCalls.map((call) => ({
                  functionCall: { id: call.id, name: call.name, args: call.input ?? {} },
                }))
              : [{ text: turn.text }],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
  };
}

function reply(api: ModelApi, turn: AnsweringTurn, number: number, body: Json, path: string): Json {
  if (api === 'anthropic') return anthropicReply(turn, number, body.model);
  if (api === 'chat') return chatReply(turn, number, body.model);
  if (api === 'gemini')
    return geminiReply(turn, path.slice(path.lastIndexOf('/') + 1).split(':')[0] ?? '');
  return responsesReply(turn, number, body);
}

/** One server-sent event: `event: TYPE` (when the API names its events) and the JSON data. */
function event(data: Json, named: boolean): string {
  return `${named ? `event: ${String(data.type)}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** A reply as the Messages API streams it: the message, then each block opened, filled, closed. */
function anthropicEvents(message: Json): Json[] {
  const blocks = list(message.content);
  return [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
    ...blocks.flatMap((block, index) => [
      {
        type: 'content_block_start',
        index,
        content_block:
          block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' },
      },
      {
        type: 'content_block_delta',
        index,
        delta:
          block.type === 'tool_use'
            ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
            : { type: 'text_delta', text: block.text },
      },
      { type: 'content_block_stop', index },
    ]),
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: 'message_stop' },
  ];
}

/** A reply as the Responses API streams it: created, each output item added and done, completed. */
function responsesEvents(response: Json): Json[] {
  const items = list(response.output);
  const started = { ...response, status: 'in_progress', output: [] };
  return [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...items.flatMap((item, index) => [
      { type: 'response.output_item.added', output_index: index, item },
      { type: 'response.output_item.done', output_index: index, item },
    ]),
    { type: 'response.completed', response },
  ].map((data, sequence) => ({ ...data, sequence_number: sequence }));
}

/** Whether the client asked for a stream: `stream: true`, or Gemini's `:streamGenerateContent`. */
function streamed(api: ModelApi, body: Json, path: string): boolean {
  return api === 'gemini' ? path.endsWith(':streamGenerateContent') : body.stream === true;
}

function sendStream(response: ServerResponse, api: ModelApi, reply: Json): void {
  const events =
    api === 'anthropic'
      ? anthropicEvents(reply)
      : api === 'responses'
        ? responsesEvents(reply)
        : [reply];
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-should-retry': 'false',
  });
  // Gemini's stream is bare `data:` lines; the others name each event.
  response.end(events.map((data) => event(data, api !== 'gemini')).join(''));
}

/**
 * Starts a model server that answers each API with its scripted turns, in order (closed after
 * the test).
 *
 * @example const server = await startModelServer({ anthropic: [{ toolCalls: [call] }, { text: 'Done.' }] });
 */
export async function startModelServer(
  script: Partial<Record<ModelApi, readonly ScriptedTurn[]>>,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const queues = new Map<ModelApi, ScriptedTurn[]>(
    Object.entries(script).map(([api, turns]) => [api as ModelApi, [...turns]]),
  );
  const requests: RecordedRequest[] = [];
  const unrouted: UnroutedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      const path = new URL(url, 'http://127.0.0.1').pathname;
      const api = routeOf(path);
      if (request.method !== 'POST' || api === undefined) {
        const body = await readBody(request).catch(() => '');
        unrouted.push({ method: request.method ?? '', url, headers: request.headers, body });
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
      requests.push({ api, url, headers: request.headers, body });
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
      if ('hang' in turn) return;
      if ('fail' in turn) {
        send(response, turn.fail.status, errorBody(api, turn.fail.message, turn.fail));
        return;
      }
      const answer = reply(api, turn, requests.length, body, path);
      if (streamed(api, body, path)) sendStream(response, api, answer);
      else send(response, 200, answer);
    })();
  });
  const listen = options.listen;
  let port: number;
  if (listen === undefined) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  } else {
    await new Promise<void>((resolve) => server.listen(listen.handle, resolve));
    port = listen.port;
  }
  const handle: ModelServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    unrouted,
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
