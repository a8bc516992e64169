import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { SUMMARY_INSTRUCTIONS } from '../../src/context/summary-input.js';
import { estimateTokens } from '../../src/format/tokens.js';
import type { ModelHandle } from '../../src/loop/providers.js';

/**
 * A model in-process for the agent loop: it answers from a script and records every request
 * it was sent (the prompt as the AI SDK hands it to a provider), so that tests can read what the
 * model saw, request by request. The summariser's requests are told apart by their instructions.
 */

export interface ScriptedCall {
  readonly id?: string;
  readonly name: string;
  readonly input: unknown;
}

/** One answer: text, tool calls, or a failure as a provider's API error. */
export type ScriptedAnswer =
  | { readonly text: string }
  | { readonly toolCalls: readonly ScriptedCall[]; readonly text?: string }
  | { readonly fail: { readonly status: number; readonly type: string; readonly message: string } };

export interface ScriptedRequest {
  readonly purpose: 'turn' | 'summary';
  /** The system prompt's text. */
  readonly system: string;
  /** The prompt without the system message, as the provider receives it. */
  readonly messages: LanguageModelV3Prompt;
  readonly tools: readonly string[];
  /** The whole request as JSON (system, messages, tools), for searching. */
  readonly json: string;
  /** Its size by the token estimate. */
  readonly tokens: number;
}

export interface ScriptedModel {
  readonly handle: ModelHandle;
  readonly requests: ScriptedRequest[];
  /** The turns' requests only (not the summariser's). */
  turns(): ScriptedRequest[];
  summaries(): ScriptedRequest[];
}

export interface ScriptedModelOptions {
  /** The answers to the turns' requests, in order, or a function of the request. */
  readonly answers:
    | readonly ScriptedAnswer[]
    | ((request: ScriptedRequest, index: number) => ScriptedAnswer);
  /** The summary the summariser writes (default: a fixed sentence), or a failure. */
  readonly summary?: string | ((request: ScriptedRequest) => ScriptedAnswer);
  /** The model id (the context window comes from the model table; unknown ids get the default). */
  readonly model?: string;
}

function apiError(fail: { status: number; type: string; message: string }): Error {
  return Object.assign(new Error(fail.message), {
    name: 'AI_APICallError',
    statusCode: fail.status,
    responseBody: JSON.stringify({
      type: 'error',
      error: { type: fail.type, message: fail.message },
    }),
    isRetryable: false,
  });
}

const USAGE = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

export function scriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const requests: ScriptedRequest[] = [];
  let turnIndex = 0;
  let callCount = 0;
  const record = (call: LanguageModelV3CallOptions): ScriptedRequest => {
    const systemParts = call.prompt.filter((message) => message.role === 'system');
    const system = systemParts.map((message) => message.content).join('\n');
    const messages = call.prompt.filter((message) => message.role !== 'system');
    const tools = (call.tools ?? []).map((tool) => tool.name);
    const json = JSON.stringify({ system, messages, tools: call.tools ?? [] });
    const request: ScriptedRequest = {
      purpose: system === SUMMARY_INSTRUCTIONS ? 'summary' : 'turn',
      system,
      messages,
      tools,
      json,
      tokens: estimateTokens(json),
    };
    requests.push(request);
    return request;
  };
  const answer = (request: ScriptedRequest): ScriptedAnswer => {
    if (request.purpose === 'summary') {
      const summary = options.summary ?? 'The user and the agent worked on the task.';
      return typeof summary === 'string' ? { text: summary } : summary(request);
    }
    const index = turnIndex;
    turnIndex += 1;
    const { answers } = options;
    if (typeof answers === 'function') return answers(request, index);
    return answers[index] ?? { text: 'Done.' };
  };
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: options.model ?? 'scripted-model',
    supportedUrls: {},
    doGenerate: async (call) => {
      const request = record(call);
      const reply = answer(request);
      if ('fail' in reply) throw apiError(reply.fail);
      const text = 'text' in reply && reply.text !== undefined ? reply.text : '';
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE(request.tokens, estimateTokens(text)),
        warnings: [],
      };
    },
    doStream: async (call) => {
      const request = record(call);
      const reply = answer(request);
      if ('fail' in reply) throw apiError(reply.fail);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      const text = 'text' in reply && reply.text !== undefined ? reply.text : '';
      if (text !== '') {
        parts.push({ type: 'text-start', id: 't' });
        parts.push({ type: 'text-delta', id: 't', delta: text });
        parts.push({ type: 'text-end', id: 't' });
      }
      const calls = 'toolCalls' in reply ? reply.toolCalls : [];
      for (const tool of calls) {
        callCount += 1;
        parts.push({
          type: 'tool-call',
          toolCallId: tool.id ?? `call_${callCount}`,
          toolName: tool.name,
          input: JSON.stringify(tool.input),
        });
      }
      parts.push({
        type: 'finish',
        finishReason:
          calls.length > 0
            ? { unified: 'tool-calls', raw: 'tool_use' }
            : { unified: 'stop', raw: 'end_turn' },
        usage: USAGE(request.tokens, estimateTokens(text) + 10 * calls.length),
      });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  const handle: ModelHandle = {
    provider: 'openai-compatible',
    model: options.model ?? 'scripted-model',
    load: async () => model,
  };
  return {
    handle,
    requests,
    turns: () => requests.filter((request) => request.purpose === 'turn'),
    summaries: () => requests.filter((request) => request.purpose === 'summary'),
  };
}
