import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { modelPrompt } from '../../src/loop/model-prompt.js';
import { ANTHROPIC_CACHE, modelTools } from '../../src/loop/request.js';

const SYSTEM = { content: 'You are a test agent.', providerOptions: ANTHROPIC_CACHE };

const call = (id: string, input: unknown = { path: 'a.md' }): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'skillhost_read', input }],
});
const result = (id: string, value = 'text'): ModelMessage => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: id,
      toolName: 'skillhost_read',
      output: { type: 'text', value },
    },
  ],
});

describe('the history as the provider prompt', () => {
  it('keeps the system cache breakpoint and converts each role as the AI SDK does', () => {
    const prompt = modelPrompt(SYSTEM, [
      { role: 'user', content: 'Read the guide.' },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'thinking',
            providerOptions: { anthropic: { signature: 'sig' } },
          },
          { type: 'text', text: '' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'skillhost_read', input: { x: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'skillhost_read',
            output: { type: 'error-text', value: 'Error X' },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And?' }] },
    ]);
    expect(prompt).toEqual([
      { role: 'system', content: 'You are a test agent.', providerOptions: ANTHROPIC_CACHE },
      { role: 'user', content: [{ type: 'text', text: 'Read the guide.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'thinking',
            providerOptions: { anthropic: { signature: 'sig' } },
          },
          { type: 'text', text: 'Reading.' },
          // The input stays an object: the provider serialises it.
          { type: 'tool-call', toolCallId: 'c1', toolName: 'skillhost_read', input: { x: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'skillhost_read',
            output: { type: 'error-text', value: 'Error X' },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And?' }] },
    ]);
  });

  it('converts each message once, and joins consecutive tool messages without changing them', () => {
    const first = call('c1');
    const history: ModelMessage[] = [{ role: 'user', content: 'go' }, first, result('c1')];
    const one = modelPrompt(SYSTEM, history);
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c2', toolName: 'skillhost_read', input: {} },
          { type: 'tool-call', toolCallId: 'c3', toolName: 'skillhost_read', input: {} },
        ],
      },
      result('c2'),
      result('c3'),
    );
    const two = modelPrompt(SYSTEM, history);
    // The messages of the first request are the same objects in the second.
    expect(two[2]).toBe(one[2]);
    expect(two[3]).toBe(one[3]);
    expect(two).toHaveLength(6);
    const joined = two[5];
    expect(joined?.role).toBe('tool');
    expect(
      joined?.role === 'tool' &&
        joined.content.map((part) => 'toolCallId' in part && part.toolCallId),
    ).toEqual(['c2', 'c3']);
    // The remembered tool message was not changed by the join.
    expect(
      modelPrompt(SYSTEM, [call('c9'), history[5] as ModelMessage, result('c9')]),
    ).toHaveLength(3);
    const again = modelPrompt(SYSTEM, history);
    expect(again[5]?.content).toHaveLength(2);
  });

  it('refuses a tool call without its result before the next user message, as the AI SDK did', () => {
    expect(() => modelPrompt(SYSTEM, [call('c1'), { role: 'user', content: 'next' }])).toThrow(
      /Tool results are missing for tool calls c1/,
    );
    expect(() => modelPrompt(SYSTEM, [{ role: 'user', content: 'go' }, call('c2')])).toThrow(/c2/);
  });

  it('refuses a message of a role or part it does not know (a damaged session file)', () => {
    const damaged = [{ role: 'robot', content: 'hi' }] as unknown as ModelMessage[];
    expect(() => modelPrompt(SYSTEM, damaged)).toThrow(/Message 1 of the history .*"robot"/);
    const part = [
      { role: 'assistant', content: [{ type: 'hologram' }] },
    ] as unknown as ModelMessage[];
    expect(() => modelPrompt(SYSTEM, part)).toThrow(/"hologram"/);
    const output = [
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'x', toolName: 'y' }] },
    ] as unknown as ModelMessage[];
    expect(() => modelPrompt(SYSTEM, output)).toThrow(/without its output/);
  });

  it('reads a history as a session file stores it (JSON, written by the AI SDK before)', () => {
    const stored = JSON.parse(
      JSON.stringify([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading.', providerOptions: undefined },
            {
              type: 'tool-call',
              toolCallId: 'c1',
              toolName: 'skillhost_read',
              input: { path: 'a.md' },
              providerExecuted: undefined,
              providerOptions: undefined,
            },
          ],
        },
        result('c1', 'the text'),
      ]),
    ) as ModelMessage[];
    const prompt = modelPrompt(SYSTEM, stored);
    expect(prompt[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'skillhost_read',
          input: { path: 'a.md' },
        },
      ],
    });
  });
});

describe('the tools as the provider takes them', () => {
  it('puts the cache breakpoint on the last tool only', () => {
    const definition = (name: string) => ({
      name,
      description: `${name} does a thing`,
      inputSchema: {
        type: 'object' as const,
        properties: { path: { type: 'string' } },
        required: ['path'],
      },
    });
    const { tools, names } = modelTools([definition('a'), definition('b')] as never);
    expect([...names]).toEqual(['a', 'b']);
    expect(tools[0]).toEqual({
      type: 'function',
      name: 'a',
      description: 'a does a thing',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
    });
    expect(tools[1]?.providerOptions).toEqual(ANTHROPIC_CACHE);
  });
});
