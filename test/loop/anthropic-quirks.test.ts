import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/events.js';
import { runAgentLoop } from '../../src/loop/loop.js';
import { modelHandle } from '../../src/loop/providers.js';
import { world } from '../helpers/runtime.js';
import {
  failure,
  type ScriptedResponse,
  sse,
  startFixtureServer,
  stream,
} from '../helpers/sse-fixtures.js';

/** The Messages API's streaming cases, each as a scripted stream the real AI SDK provider reads. */

type Block =
  | { readonly text: string }
  | { readonly thinking: string; readonly signature: string }
  | {
      readonly tool: string;
      readonly id: string;
      readonly json: readonly string[];
      readonly open?: boolean;
    };

function message(blocks: readonly Block[], stop: string, extra: readonly string[] = []): string[] {
  const events: string[] = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 30, output_tokens: 1, cache_read_input_tokens: 20 },
        },
      },
      'message_start',
    ),
  ];
  blocks.forEach((block, index) => {
    if ('text' in block) {
      events.push(
        sse(
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
      );
      events.push(
        sse(
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
          'content_block_delta',
        ),
      );
    } else if ('thinking' in block) {
      events.push(
        sse(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
          'content_block_start',
        ),
      );
      events.push(
        sse(
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: block.thinking },
          },
          'content_block_delta',
        ),
      );
      events.push(
        sse(
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'signature_delta', signature: block.signature },
          },
          'content_block_delta',
        ),
      );
    } else {
      events.push(
        sse(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.tool, input: {} },
          },
          'content_block_start',
        ),
      );
      for (const piece of block.json)
        events.push(
          sse(
            {
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: piece },
            },
            'content_block_delta',
          ),
        );
    }
    if (!('tool' in block) || block.open !== true)
      events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  events.push(...extra);
  events.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  );
  return events;
}

const answer = stream(message([{ text: 'All done.' }], 'end_turn'));
const overloaded = stream([
  ...message([{ text: 'Partial' }], 'end_turn').slice(0, 3),
  sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
]);

async function runOn(
  script: readonly ScriptedResponse[],
  options: { fallback?: boolean; maxRetryWaitMs?: number; files?: Record<string, string> } = {},
) {
  const w = world({ files: options.files ?? { 'references/guide.md': 'GUIDE\n' } });
  const server = await startFixtureServer(script);
  const events: LoopEvent[] = [];
  const waits: number[] = [];
  const audit: Array<{ event: string; details: Readonly<Record<string, unknown>> }> = [];
  const connection = {
    provider: 'anthropic' as const,
    apiKey: 'sk-ant-test-0123456789',
    baseURL: server.url,
  };
  const end = await runAgentLoop({
    runtime: w.runtime,
    models: [
      modelHandle(connection, 'claude-sonnet-4-5'),
      ...(options.fallback === true ? [modelHandle(connection, 'claude-haiku-4-5')] : []),
    ],
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: 'go' }],
    onEvent: (event) => events.push(event),
    audit: (record) => {
      audit.push(record);
      w.runtime.recordAgentEvent(record);
    },
    limits: {
      maxRetries: 2,
      ...(options.maxRetryWaitMs === undefined ? {} : { maxRetryWaitMs: options.maxRetryWaitMs }),
    },
    // The waits are recorded, not waited.
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  });
  return { w, server, events, end, waits, audit };
}

describe('Anthropic streaming cases', () => {
  it('input_json_delta split in the middle of a character', async () => {
    // "é" is \u00e9 in JSON and two bytes in UTF-8: the escape is split between deltas, and the
    // raw bytes of "ü" between two network chunks.
    const events = message(
      [
        {
          tool: 'skillhost_search',
          id: 'toolu_1',
          json: ['{"query":"caf\\u00', 'e9 ', 'm\u00fc', 'sli"}'],
        },
      ],
      'tool_use',
    );
    const bytes = Buffer.from(events.join(''), 'utf8');
    const at = bytes.indexOf(Buffer.from('\u00fc', 'utf8')) + 1; // between the two bytes of ü
    const run = await runOn([
      {
        headers: { 'content-type': 'text/event-stream' },
        chunks: [bytes.subarray(0, at), bytes.subarray(at)],
      },
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.events.find((event) => event.type === 'tool-call')).toMatchObject({
      input: { query: 'café müsli' },
    });
  });

  it('a mid-stream overloaded_error: retried, then the fallback, recorded', async () => {
    const run = await runOn([overloaded, overloaded, overloaded, answer], { fallback: true });
    expect(run.end.status).toBe('done');
    expect(run.end.model.model).toBe('claude-haiku-4-5');
    expect(run.events.filter((event) => event.type === 'retry')).toHaveLength(2);
    expect(run.server.requests.map((request) => request.body.model)).toEqual([
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
    ]);
    const switched = run.w.records().find((record) => record.event === 'model-switch');
    expect(switched?.details).toMatchObject({
      from: 'claude-sonnet-4-5',
      to: 'claude-haiku-4-5',
      error: { code: 'MODEL_OVERLOADED' },
    });
    expect(run.w.intact()).toBe(true);
  });

  it('429 with retry-after: waits what the server asked; longer than the limit goes to the fallback', async () => {
    const limited = (seconds: string) =>
      failure(
        429,
        { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
        { 'retry-after': seconds },
      );
    const run = await runOn([limited('7'), answer]);
    expect(run.end.status).toBe('done');
    expect(run.waits).toEqual([7000]);
    const long = await runOn([limited('3600'), answer], { fallback: true, maxRetryWaitMs: 60_000 });
    expect(long.end.status).toBe('done');
    expect(long.waits).toEqual([]);
    expect(long.events.find((event) => event.type === 'model-switch')).toMatchObject({
      code: 'MODEL_RATE_LIMITED',
    });
  });

  it('a bad request is never retried nor sent to the fallback', async () => {
    const run = await runOn(
      [
        failure(400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }),
        answer,
      ],
      { fallback: true },
    );
    expect(run.end).toMatchObject({ status: 'failed', code: 'MODEL_BAD_REQUEST' });
    expect(run.server.requests).toHaveLength(1);
  });

  it('max_tokens inside a tool call: the cut call is not run and gets an error result', async () => {
    const run = await runOn([
      stream(
        message(
          [{ tool: 'skillhost_read', id: 'toolu_1', json: ['{"name":"tool","pa'] }],
          'max_tokens',
        ),
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    expect(run.events.find((event) => event.type === 'tool-result')).toMatchObject({
      isError: true,
      code: 'TOOL_INPUT_INVALID',
    });
    expect(run.w.records().some((record) => record.event === 'resource-read')).toBe(false);
    const last = run.server.requests[1]?.body.messages.at(-1);
    expect(last.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
    });
    // A stream that ends before the block closes leaves no call at all: the run stops at the limit.
    const open = await runOn([
      stream(
        message(
          [
            {
              tool: 'skillhost_read',
              id: 'toolu_1',
              json: ['{"name":"tool","pa'],
              open: true,
            },
          ],
          'max_tokens',
        ),
      ),
    ]);
    expect(open.end).toMatchObject({ status: 'limit', limit: 'output-tokens' });
    expect(open.w.records().some((record) => record.event === 'resource-read')).toBe(false);
  });

  it('pause_turn: the turn is continued with the same content', async () => {
    const run = await runOn([stream(message([{ text: 'Working on it.' }], 'pause_turn')), answer]);
    expect(run.end).toMatchObject({ status: 'done', text: 'All done.', steps: 2 });
    const last = run.server.requests[1]?.body.messages.at(-1);
    expect(last.role).toBe('assistant');
    expect(JSON.stringify(last.content)).toContain('Working on it.');
  });

  it('refusal: the fallback answers; without one the run fails with MODEL_REFUSED', async () => {
    const refusal = stream(message([{ text: 'I cannot help with that.' }], 'refusal'));
    const withFallback = await runOn([refusal, answer], { fallback: true });
    expect(withFallback.end.status).toBe('done');
    expect(withFallback.end.model.model).toBe('claude-haiku-4-5');
    const alone = await runOn([refusal]);
    expect(alone.end).toMatchObject({ status: 'failed', code: 'MODEL_REFUSED' });
  });

  it('thinking blocks are replayed with their signature', async () => {
    const run = await runOn([
      stream(
        message(
          [
            { thinking: 'The user wants the guide.', signature: 'sig-abc' },
            { tool: 'skillhost_search', id: 'toolu_1', json: ['{"query":"guide"}'] },
          ],
          'tool_use',
        ),
      ),
      answer,
    ]);
    expect(run.end.status).toBe('done');
    const assistant = run.server.requests[1]?.body.messages.find(
      (item: { role: string }) => item.role === 'assistant',
    );
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants the guide.',
      signature: 'sig-abc',
    });
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_1' });
  });

  it('reports cache reads in the usage', async () => {
    const run = await runOn([answer]);
    expect(run.end.usage.cacheReadTokens).toBe(20);
  });
});
