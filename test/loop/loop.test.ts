import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../src/loop/approvals.js';
import type { LoopEvent } from '../../src/loop/events.js';
import { runAgentLoop } from '../../src/loop/loop.js';
import { modelHandle } from '../../src/loop/providers.js';
import { sha256 } from '../../src/node/hash.js';
import { startModelServer } from '../helpers/model-servers.js';
import { world } from '../helpers/runtime.js';

const KEY = 'sk-ant-test-SECRET-0123456789';

describe('the agent loop over the Anthropic Messages API', () => {
  it('runs each tool call through the runtime and answers', async () => {
    const w = world({ files: { 'references/guide.md': 'GUIDE-TEXT\n' } });
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_activate', input: { name: 'tool' } }] },
        {
          toolCalls: [
            {
              id: 'toolu_2',
              name: 'skillhost_read',
              input: { name: 'tool', path: 'references/guide.md' },
            },
          ],
        },
        { text: 'Done: the guide says GUIDE-TEXT.' },
      ],
    });
    const events: LoopEvent[] = [];
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [
        modelHandle(
          { provider: 'anthropic', apiKey: KEY, baseURL: server.url },
          'claude-sonnet-4-5',
        ),
      ],
      system: 'You are a test agent.',
      messages: [{ role: 'user', content: 'Read the guide.' }],
      onEvent: (event) => events.push(event),
    });
    expect(end.status).toBe('done');
    expect(end.text).toBe('Done: the guide says GUIDE-TEXT.');
    expect(end.steps).toBe(3);
    expect(server.requests).toHaveLength(3);
    // The system prompt is byte-identical at every step and carries a cache breakpoint, as does the last tool.
    const systems = server.requests.map((request) => JSON.stringify(request.body.system));
    expect(new Set(systems).size).toBe(1);
    expect(server.requests[0]?.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    const tools = server.requests[0]?.body.tools;
    expect(tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    expect(
      tools
        .slice(0, -1)
        .every((tool: { cache_control?: unknown }) => tool.cache_control === undefined),
    ).toBe(true);
    // The model saw the file's text as the tool result.
    const last = server.requests[2]?.body.messages.at(-1);
    expect(JSON.stringify(last)).toContain('GUIDE-TEXT');
    expect(events.map((event) => event.type)).toContain('tool-result');
    expect(w.records().map((record) => record.event)).toEqual(
      expect.arrayContaining(['skill-activate', 'resource-read']),
    );
    // The key went only into the request header.
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(w.intact()).toBe(true);
  });

  it('gives a bad input an error result and never runs it', async () => {
    const w = world();
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_read', input: { name: 'tool' } }] },
        { text: 'I see.' },
      ],
    });
    const events: LoopEvent[] = [];
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [
        modelHandle(
          { provider: 'anthropic', apiKey: KEY, baseURL: server.url },
          'claude-sonnet-4-5',
        ),
      ],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      onEvent: (event) => events.push(event),
    });
    expect(end.status).toBe('done');
    const result = events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({ isError: true, code: 'TOOL_INPUT_INVALID' });
    expect(w.records().some((record) => record.event === 'resource-read')).toBe(false);
  });

  it('stops at the step limit, and before a request that passes the context budget', async () => {
    const w = world();
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_search', input: { query: 'tool' } }] },
        { toolCalls: [{ id: 'toolu_2', name: 'skillhost_search', input: { query: 'tool' } }] },
      ],
    });
    const model = modelHandle(
      { provider: 'anthropic', apiKey: KEY, baseURL: server.url },
      'claude-sonnet-4-5',
    );
    const limited = await runAgentLoop({
      runtime: w.runtime,
      models: [model],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      limits: { maxSteps: 1 },
    });
    expect(limited).toMatchObject({ status: 'limit', limit: 'steps', steps: 1 });
    expect(server.requests).toHaveLength(1);
    const budget = await runAgentLoop({
      runtime: w.runtime,
      models: [model],
      system: 'S'.repeat(4000),
      messages: [{ role: 'user', content: 'go' }],
      limits: { contextBudget: 500 },
    });
    expect(budget).toMatchObject({ status: 'limit', limit: 'context-budget', steps: 0 });
    expect(server.requests).toHaveLength(1);
  });

  it('denies a script run without a terminal, names --yes and --allow, and stops with refused', async () => {
    const broker = new ApprovalBroker({ hash: sha256 });
    const w = world({
      files: { 'scripts/run.sh': '#!/bin/sh\necho hi\n' },
      deps: { confirm: broker.confirm },
    });
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_activate', input: { name: 'tool' } }] },
        {
          toolCalls: [
            {
              id: 'toolu_2',
              name: 'skillhost_run',
              input: { name: 'tool', script: 'scripts/run.sh' },
            },
          ],
        },
      ],
    });
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [
        modelHandle(
          { provider: 'anthropic', apiKey: KEY, baseURL: server.url },
          'claude-sonnet-4-5',
        ),
      ],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      approvals: broker,
      limits: { maxRetries: 0 },
    });
    expect(end).toMatchObject({ status: 'refused', code: 'PERMISSION_REQUIRED' });
    const tool = end.messages.at(-1);
    expect(JSON.stringify(tool)).toContain('--yes');
    expect(JSON.stringify(tool)).toContain('--allow');
    // The decisions on the run name the model's id of the call they were about; nothing else does.
    const decisions = w.records().filter((record) => record.event === 'permission-decide');
    expect(decisions.length).toBeGreaterThan(0);
    for (const record of decisions)
      expect(record.tool_or_script_calls).toEqual([
        expect.objectContaining({ script: 'scripts/run.sh', tool_call_id: 'toolu_2' }),
      ]);
    for (const record of w.records().filter((record) => record.event !== 'permission-decide'))
      expect(JSON.stringify(record)).not.toContain('tool_call_id');
    // A call made without an id (an adapter, a test) records its decisions without one.
    await w.runtime.callTool('skillhost_run', { name: 'tool', script: 'scripts/run.sh' });
    const last = w
      .records()
      .filter((record) => record.event === 'permission-decide')
      .at(-1);
    expect(last).toBeDefined();
    expect(JSON.stringify(last)).not.toContain('tool_call_id');
    expect(w.intact()).toBe(true);
  });
});

describe('the agent loop over the OpenAI Responses API', () => {
  it('runs a call and answers, the key only in the header', async () => {
    const w = world();
    const server = await startModelServer({
      responses: [
        { toolCalls: [{ id: 'call_1', name: 'skillhost_activate', input: { name: 'tool' } }] },
        { text: 'Activated.' },
      ],
    });
    const key = 'sk-openai-TEST-0123456789';
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [
        modelHandle({ provider: 'openai', apiKey: key, baseURL: `${server.url}/v1` }, 'gpt-5'),
      ],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
    });
    // (The shared fake sends no output_text deltas, so no text streams; the ending is what counts.)
    expect(end).toMatchObject({ status: 'done', steps: 2 });
    expect(server.requests.map((request) => request.api)).toEqual(['responses', 'responses']);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.stringify(server.requests[1]?.body.input)).toContain('function_call_output');
  });
});

describe('interrupting', () => {
  it('stops a retry wait when the signal aborts, and says interrupted', async () => {
    const w = world();
    const controller = new AbortController();
    const end = await runAgentLoop({
      runtime: w.runtime,
      models: [
        modelHandle(
          { provider: 'anthropic', apiKey: KEY, baseURL: 'http://127.0.0.1:9' },
          'claude-sonnet-4-5',
        ),
      ],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      // The first wait aborts the run, as Ctrl-C would during it.
      sleep: async (_ms, signal) => {
        controller.abort();
        if (signal?.aborted) throw new Error('aborted');
      },
      signal: controller.signal,
    });
    expect(end).toMatchObject({ status: 'interrupted', code: 'AGENT_INTERRUPTED' });
  });
});

describe('the limits', () => {
  it('stops at the output-token limit and at the wall-time limit', async () => {
    const w = world();
    const server = await startModelServer({
      anthropic: [
        { toolCalls: [{ id: 'toolu_1', name: 'skillhost_search', input: { query: 'tool' } }] },
        { hang: true },
      ],
    });
    const model = modelHandle(
      { provider: 'anthropic', apiKey: KEY, baseURL: server.url },
      'claude-sonnet-4-5',
    );
    // Each scripted answer costs 5 output tokens: the second request would pass a limit of 5.
    const tokens = await runAgentLoop({
      runtime: w.runtime,
      models: [model],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      limits: { maxOutputTokens: 5 },
    });
    expect(tokens).toMatchObject({ status: 'limit', limit: 'output-tokens', steps: 1 });
    // The model never answers: the wall-time limit aborts the request.
    const time = await runAgentLoop({
      runtime: w.runtime,
      models: [model],
      system: 'S',
      messages: [{ role: 'user', content: 'go' }],
      limits: { wallTimeMs: 50 },
    });
    expect(time).toMatchObject({
      status: 'limit',
      limit: 'wall-time',
      code: 'AGENT_LIMIT_REACHED',
    });
  });
});
