import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/events.js';
import { runAgentLoop } from '../../src/loop/loop.js';
import { classifyFailure } from '../../src/loop/retry.js';
import { parseToolCall, readStep } from '../../src/loop/step-stream.js';
import { world } from '../helpers/runtime.js';

const TOOLS = new Set(['skillhost_read', 'workspace_read']);

const USAGE = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 },
  outputTokens: { total: 7, text: 5, reasoning: 2 },
};

function streamOf(
  parts: readonly unknown[],
  error?: unknown,
): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part as LanguageModelV3StreamPart);
      if (error === undefined) controller.close();
      else controller.error(error);
    },
  });
}

function read(parts: readonly unknown[], options: { error?: unknown; signal?: AbortSignal } = {}) {
  const events: LoopEvent[] = [];
  const outcome = readStep(streamOf(parts, options.error), {
    tools: TOOLS,
    step: 3,
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => events.push(event),
  });
  return { outcome, events };
}

const finish = (unified: string, raw: string) => ({
  type: 'finish',
  finishReason: { unified, raw },
  usage: USAGE,
});

describe('reading a model answer from its stream parts', () => {
  it('streams text and reasoning as events and keeps them, with their metadata, in the assistant message', async () => {
    const { outcome, events } = read([
      { type: 'stream-start', warnings: [{ type: 'unsupported', feature: 'topK' }] },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Let me ' },
      { type: 'reasoning-delta', id: 'r', delta: 'think.' },
      { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'SIG' } } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello, ' },
      { type: 'text-delta', id: 't', delta: '' },
      { type: 'text-delta', id: 't', delta: 'world.' },
      { type: 'text-end', id: 't' },
      { type: 'text-start', id: 'empty' },
      { type: 'text-end', id: 'empty' },
      finish('stop', 'end_turn'),
    ]);
    const step = await outcome;
    expect(events).toEqual([
      { type: 'reasoning', step: 3, text: 'Let me ' },
      { type: 'reasoning', step: 3, text: 'think.' },
      { type: 'text', step: 3, text: 'Hello, ' },
      { type: 'text', step: 3, text: 'world.' },
    ]);
    expect(step.text).toBe('Hello, world.');
    expect(step.assistant).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'Let me think.',
            providerOptions: { anthropic: { signature: 'SIG' } },
          },
          { type: 'text', text: 'Hello, world.' },
        ],
      },
    ]);
    expect(step.finishReason).toBe('stop');
    expect(step.rawFinishReason).toBe('end_turn');
    expect(step.warnings).toEqual([{ type: 'unsupported', feature: 'topK' }]);
  });

  it('maps the usage, cache reads and writes included', async () => {
    const step = await read([finish('stop', 'end_turn')]).outcome;
    expect(step.usage).toEqual({
      inputTokens: 120,
      outputTokens: 7,
      cacheReadTokens: 90,
      cacheWriteTokens: 10,
    });
    const none = await read([
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: {
            total: undefined,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
      },
    ]).outcome;
    expect(none.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    // No finish part at all: the reason is "other", as the AI SDK said.
    expect((await read([]).outcome).finishReason).toBe('other');
  });

  it('parses each tool call; an unknown tool or unreadable JSON is an invalid call', async () => {
    const step = await read([
      { type: 'tool-input-start', id: 'c1', toolName: 'skillhost_read' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"path"' },
      { type: 'tool-input-end', id: 'c1' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'skillhost_read',
        input: '{"name":"a","path":"b.md"}',
        providerMetadata: { anthropic: { caller: 'x' } },
      },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'workspace_read', input: '' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'skillhost_read', input: '{"path": "a' },
      { type: 'tool-call', toolCallId: 'c4', toolName: 'rm_rf', input: '{"path":"/"}' },
      finish('tool-calls', 'tool_use'),
    ]).outcome;
    expect(step.calls.map(({ id, invalid }) => [id, invalid])).toEqual([
      ['c1', false],
      ['c2', false],
      ['c3', true],
      ['c4', true],
    ]);
    expect(step.calls[0]?.input).toEqual({ name: 'a', path: 'b.md' });
    expect(step.calls[1]?.input).toEqual({});
    expect(step.calls[2]?.input).toBe('{"path": "a');
    expect(step.calls[2]?.error).toMatch(/not JSON/);
    expect(step.calls[3]?.error).toMatch(
      /no tool named "rm_rf"; the tools are skillhost_read, workspace_read/,
    );
    // The history keeps each call with an object input (an unreadable one as {}).
    const content = step.assistant[0]?.content as Array<Record<string, unknown>>;
    expect(content.map((part) => part.input)).toEqual([
      { name: 'a', path: 'b.md' },
      {},
      {},
      { path: '/' },
    ]);
    expect(content[0]?.providerOptions).toEqual({ anthropic: { caller: 'x' } });
    expect(step.finishReason).toBe('tool-calls');
  });

  it('throws the error a stream carried, classified as before (an overloaded stream is retried)', async () => {
    const overloaded = { type: 'overloaded_error', message: 'Overloaded' };
    const { outcome, events } = read([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Partial' },
      { type: 'error', error: overloaded },
      { type: 'text-delta', id: 't', delta: ' never read' },
    ]);
    const error = await outcome.catch((caught: unknown) => caught);
    expect(error).toBe(overloaded);
    expect(classifyFailure(error, 0).kind).toBe('overloaded');
    expect(events).toEqual([{ type: 'text', step: 3, text: 'Partial' }]);
  });

  it('throws a failed read, and an abort as an AbortError', async () => {
    const broken = new TypeError('terminated');
    await expect(read([], { error: broken }).outcome).rejects.toBe(broken);
    const controller = new AbortController();
    controller.abort();
    const aborted = await read([finish('stop', 'end_turn')], {
      signal: controller.signal,
    }).outcome.catch((caught: unknown) => caught);
    expect(classifyFailure(aborted, 0).kind).toBe('aborted');
  });

  it('gives no assistant message for an empty answer', async () => {
    const step = await read([finish('stop', 'end_turn')]).outcome;
    expect(step.assistant).toEqual([]);
    expect(step.calls).toEqual([]);
  });
});

describe('parseToolCall', () => {
  it('takes any JSON (the runtime checks the schema) and refuses what is not JSON', () => {
    expect(
      parseToolCall({ toolCallId: 'a', toolName: 'skillhost_read', input: '[1]' }, TOOLS),
    ).toEqual({
      id: 'a',
      name: 'skillhost_read',
      input: [1],
      invalid: false,
    });
    const bad = parseToolCall({ toolCallId: 'b', toolName: 'skillhost_read', input: '{,}' }, TOOLS);
    expect(bad.invalid).toBe(true);
    expect(bad.input).toBe('{,}');
  });
});

describe('provider warnings in a run', () => {
  it('become one warning event each, however many steps repeat them', async () => {
    const w = world();
    let answered = 0;
    const model = {
      specificationVersion: 'v3' as const,
      provider: 'test',
      modelId: 'warns',
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error('streaming only');
      },
      doStream: async () => {
        answered += 1;
        const parts =
          answered === 1
            ? [
                { type: 'tool-call', toolCallId: 'c1', toolName: 'nope', input: '{}' },
                finish('tool-calls', 'tool_use'),
              ]
            : [
                { type: 'text-start', id: 't' },
                { type: 'text-delta', id: 't', delta: 'Done.' },
                { type: 'text-end', id: 't' },
                finish('stop', 'end_turn'),
              ];
        return {
          stream: streamOf([
            {
              type: 'stream-start',
              warnings: [{ type: 'unsupported', feature: 'maxOutputTokens', details: 'capped' }],
            },
            ...parts,
          ]),
        };
      },
    };
    const events: LoopEvent[] = [];
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [{ provider: 'openai-compatible', model: 'warns', load: async () => model }],
      system: 'Test.',
      messages: [{ role: 'user', content: 'go' }],
      onEvent: (event) => events.push(event),
    });
    expect(end.status).toBe('done');
    expect(events.filter((event) => event.type === 'warning')).toEqual([
      {
        type: 'warning',
        code: 'MODEL_SETTING_IGNORED',
        message: 'openai-compatible warns: not supported: maxOutputTokens (capped)',
      },
    ]);
    // The call to a tool that does not exist got an error result, and the model went on.
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results).toMatchObject([{ id: 'c1', isError: true, code: 'TOOL_INPUT_INVALID' }]);
    expect(JSON.stringify(end.messages)).toContain('no tool named');
  });
});
