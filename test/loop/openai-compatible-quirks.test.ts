import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/events.js';
import { runAgentLoop } from '../../src/loop/loop.js';
import { modelHandle } from '../../src/loop/providers.js';
import { world } from '../helpers/runtime.js';
import { type ScriptedResponse, sse, startFixtureServer, stream } from '../helpers/sse-fixtures.js';

/**
 * The streaming quirks of OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LM Studio and
 * proxies), each as a scripted stream the real AI SDK provider reads, then the loop runs.
 */

type Delta = Record<string, unknown>;

function chunk(delta: Delta, finish: string | null = null): string {
  return sse({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

function chat(deltas: readonly Delta[], finish: string): ScriptedResponse {
  return stream([
    chunk({ role: 'assistant', content: '' }),
    ...deltas.map((delta) => chunk(delta)),
    chunk({}, finish),
    sse({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'local-model',
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
    }),
    'data: [DONE]\n\n',
  ]);
}

const answer = chat([{ content: 'All done.' }], 'stop');

function call(
  id: string | undefined,
  name: string | undefined,
  args: string,
  index?: number,
): Delta {
  return {
    tool_calls: [
      {
        ...(index === undefined ? {} : { index }),
        ...(id === undefined ? {} : { id, type: 'function' }),
        function: { ...(name === undefined ? {} : { name }), arguments: args },
      },
    ],
  };
}

async function runOn(script: readonly ScriptedResponse[]) {
  const w = world({ files: { 'references/guide.md': 'GUIDE\n' } });
  const server = await startFixtureServer(script);
  const events: LoopEvent[] = [];
  const end = await runAgentLoop({
    runtime: w.runtime,
    models: [
      modelHandle({ provider: 'openai-compatible', baseURL: `${server.url}/v1` }, 'local-model'),
    ],
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: 'go' }],
    onEvent: (event) => events.push(event),
    limits: { maxRetries: 0 },
  });
  const calls = events.filter((event) => event.type === 'tool-call');
  const results = events.filter((event) => event.type === 'tool-result');
  // biome-ignore lint/suspicious/noExplicitAny: the request body as sent.
  const followUp = server.requests[1]?.body.messages as any[] | undefined;
  return { w, server, events, end, calls, results, followUp };
}

/** Every tool call id of the assistant message is answered by a tool message, in the next request. */
// biome-ignore lint/suspicious/noExplicitAny: the request body as sent.
function answeredIds(messages: any[]): { asked: string[]; answered: string[] } {
  const assistant = messages.find((message) => message.role === 'assistant' && message.tool_calls);
  return {
    asked: (assistant?.tool_calls ?? []).map((item: { id: string }) => item.id),
    answered: messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id),
  };
}

describe('OpenAI-compatible streaming quirks', () => {
  it('tool-call deltas without index', async () => {
    const run = await runOn([
      chat(
        [call('call_a', 'skillhost_activate', '{"name":'), call(undefined, undefined, '"tool"}')],
        'tool_calls',
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.calls).toEqual([
      expect.objectContaining({ name: 'skillhost_activate', input: { name: 'tool' } }),
    ]);
    expect(run.results[0]).toMatchObject({ isError: false });
    const ids = answeredIds(run.followUp ?? []);
    expect(ids.answered).toEqual(ids.asked);
  });

  it('index always 0 for two calls with different ids', async () => {
    const run = await runOn([
      chat(
        [
          call('call_a', 'skillhost_search', '{"query":"tool"}', 0),
          call('call_b', 'skillhost_read', '{"name":"tool","path":"references/guide.md"}', 0),
        ],
        'tool_calls',
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.calls.map((event) => event.type === 'tool-call' && event.name)).toEqual([
      'skillhost_search',
      'skillhost_read',
    ]);
    expect(run.results.every((event) => event.type === 'tool-result' && !event.isError)).toBe(true);
    const ids = answeredIds(run.followUp ?? []);
    expect(ids.asked).toEqual(['call_a', 'call_b']);
    expect(ids.answered).toEqual(['call_a', 'call_b']);
  });

  it('id only on the first delta', async () => {
    const run = await runOn([
      chat(
        [
          call('call_a', 'skillhost_search', '', 0),
          call(undefined, undefined, '{"query":', 0),
          call(undefined, undefined, '"tool"}', 0),
        ],
        'tool_calls',
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.calls).toEqual([
      expect.objectContaining({ id: 'call_a', input: { query: 'tool' } }),
    ]);
    expect(answeredIds(run.followUp ?? []).answered).toEqual(['call_a']);
  });

  it('no id at all', async () => {
    const run = await runOn([
      chat([call(undefined, 'skillhost_search', '{"query":"tool"}', 0)], 'tool_calls'),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.calls).toHaveLength(1);
    const ids = answeredIds(run.followUp ?? []);
    expect(ids.asked).toHaveLength(1);
    expect(ids.asked[0]).toMatch(/.+/);
    expect(ids.answered).toEqual(ids.asked);
  });

  it('finish_reason "stop" although tool calls came', async () => {
    const run = await runOn([
      chat([call('call_a', 'skillhost_search', '{"query":"tool"}', 0)], 'stop'),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.end.text).toBe('All done.');
    expect(run.results).toHaveLength(1);
    expect(answeredIds(run.followUp ?? []).answered).toEqual(['call_a']);
  });

  it('empty arguments', async () => {
    const run = await runOn([
      chat([call('call_a', 'skillhost_search', '', 0)], 'tool_calls'),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    // An empty input is read as {}: the schema check then says what is missing, and nothing runs.
    expect(run.results[0]).toMatchObject({ isError: true, code: 'TOOL_INPUT_INVALID' });
    expect(answeredIds(run.followUp ?? []).answered).toEqual(['call_a']);
  });

  it('arguments that are not JSON', async () => {
    const run = await runOn([
      chat([call('call_a', 'skillhost_read', '{"name": "tool", path: guide', 0)], 'tool_calls'),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.results[0]).toMatchObject({ isError: true, code: 'TOOL_INPUT_INVALID' });
    expect(run.w.records().some((record) => record.event === 'resource-read')).toBe(false);
    expect(answeredIds(run.followUp ?? []).answered).toEqual(['call_a']);
  });

  it('reasoning_content is sent back with the assistant message', async () => {
    const run = await runOn([
      chat(
        [
          { reasoning_content: 'I should search ' },
          { reasoning_content: 'for the skill.' },
          call('call_a', 'skillhost_search', '{"query":"tool"}', 0),
        ],
        'tool_calls',
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.events.filter((event) => event.type === 'reasoning')).toHaveLength(2);
    const assistant = (run.followUp ?? []).find((message) => message.role === 'assistant');
    expect(assistant.reasoning_content).toBe('I should search for the skill.');
  });
});
