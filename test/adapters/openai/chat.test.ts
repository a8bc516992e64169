import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiTools, runOpenAIToolCalls } from '../../../src/adapters/openai/index.js';
import { golden } from '../../helpers/golden.js';
import { type ScriptedTurn, startModelServer } from '../../helpers/model-servers.js';
import { REPORT_FILES, reportWorld } from '../../helpers/runtime.js';

/** Runs a conversation as a host would: call tools until the model answers with text. */
async function converse(
  runtime: ReturnType<typeof reportWorld>['runtime'],
  turns: readonly ScriptedTurn[],
) {
  const server = await startModelServer({ chat: turns });
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const tools: OpenAI.Chat.ChatCompletionTool[] = openaiTools(runtime);
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: runtime.catalog().text },
    { role: 'user', content: 'Make the monthly report.' },
  ];
  let answer: string | null = null;
  for (let turn = 0; turn < turns.length; turn += 1) {
    const completion = await client.chat.completions.create({ model: 'gpt-test', tools, messages });
    const message = completion.choices[0]?.message;
    if (message === undefined) break;
    messages.push(message);
    if (completion.choices[0]?.finish_reason !== 'tool_calls') {
      answer = message.content;
      break;
    }
    const results: OpenAI.Chat.ChatCompletionToolMessageParam[] = await runOpenAIToolCalls(
      runtime,
      message,
    );
    messages.push(...results);
  }
  return { server, answer };
}

/** The tool messages the server received after the last assistant message of a request. */
function toolMessagesSent(body: { messages: Array<{ role: string }> }) {
  const last = body.messages.findLastIndex((message) => message.role === 'assistant');
  return body.messages.slice(last + 1);
}

describe('skillhost/openai Chat Completions over the real OpenAI client and HTTP', () => {
  it('defines the tools in the Chat Completions shape: type function, function {name, ...}', () => {
    const { runtime } = reportWorld();
    expect(openaiTools(runtime)).toEqual(golden('openai-chat-tools.json'));
  });

  it('activates a skill, runs its script and reads a reference in a full round trip', async () => {
    const w = reportWorld();
    const { server, answer } = await converse(w.runtime, [
      { toolCalls: [{ id: 'call_1', name: 'skillhost_activate', input: { name: 'tool' } }] },
      {
        toolCalls: [
          {
            id: 'call_2',
            name: 'skillhost_run',
            input: { name: 'tool', script: 'scripts/report.sh', args: ['March 2025'] },
          },
          {
            id: 'call_3',
            name: 'skillhost_read',
            input: { name: 'tool', path: 'references/guide.md' },
          },
        ],
      },
      { text: 'The March report is ready.' },
    ]);

    expect(answer).toBe('The March report is ready.');
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe('Bearer test-key');
      expect(request.body.tools).toEqual(golden('openai-chat-tools.json'));
    }
    expect(toolMessagesSent(server.requests[1]?.body)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('Do the thing.') },
    ]);
    expect(toolMessagesSent(server.requests[2]?.body)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_2',
        content: expect.stringContaining('report for March 2025'),
      },
      { role: 'tool', tool_call_id: 'call_3', content: REPORT_FILES['references/guide.md'] },
    ]);
    expect(w.records().find((record) => record.event === 'skill-activate')).toMatchObject({
      skill_name: 'tool',
      triggered_by: 'model',
    });
    expect(w.records().some((record) => record.event === 'script-run')).toBe(true);
    // The decision on the run names the model's id of the call it was about.
    const decisions = w.records().filter((record) => record.event === 'permission-decide');
    expect(decisions.length).toBeGreaterThan(0);
    for (const record of decisions)
      expect(record.tool_or_script_calls).toEqual([
        expect.objectContaining({ script: 'scripts/report.sh', tool_call_id: 'call_2' }),
      ]);
    expect(w.intact()).toBe(true);
  });

  it('answers an unknown tool and arguments that are not JSON with error messages', async () => {
    const w = reportWorld();
    const { server, answer } = await converse(w.runtime, [
      {
        toolCalls: [
          { id: 'call_1', name: 'delete_everything', input: {} },
          { id: 'call_2', name: 'skillhost_activate', rawArguments: '{"name": "tool"' },
          { id: 'call_3', name: 'skillhost_activate', rawArguments: '' },
        ],
      },
      { text: 'I could not do that.' },
    ]);

    expect(answer).toBe('I could not do that.');
    const sent = toolMessagesSent(server.requests[1]?.body) as Array<Record<string, string>>;
    expect(sent.map((message) => message.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(sent[0]?.content).toMatch(/^Error TOOL_UNKNOWN: /);
    expect(sent[1]?.content).toMatch(/^Error TOOL_INPUT_INVALID: .*not valid JSON/);
    expect(sent[2]?.content).toMatch(/^Error TOOL_INPUT_INVALID: .*not valid JSON/);
    expect(w.records().some((record) => record.event === 'skill-activate')).toBe(false);
  });

  it('leaves the host its own tools when told to skip them', async () => {
    const { runtime } = reportWorld();
    const message = {
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        { id: 'call_2', type: 'custom', custom: { name: 'free_text', input: 'hello' } },
        {
          id: 'call_3',
          type: 'function',
          function: { name: 'skillhost_activate', arguments: '{"name":"tool"}' },
        },
      ],
    };
    const skipped = await runOpenAIToolCalls(runtime, message, { otherTools: 'skip' });
    expect(skipped.map((tool) => tool.tool_call_id)).toEqual(['call_3']);
    const answered = await runOpenAIToolCalls(runtime, message);
    expect(answered.map((tool) => tool.content)).toEqual([
      expect.stringMatching(/^Error TOOL_UNKNOWN: /),
      expect.stringMatching(/^Error TOOL_UNKNOWN: /),
      expect.stringContaining('already active'),
    ]);
    expect(await runOpenAIToolCalls(runtime, { tool_calls: null })).toEqual([]);
  });

  it('talks to a server that, like the real API, refuses a tool call left without its answer', async () => {
    const server = await startModelServer({ chat: [{ text: 'unreachable' }] });
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const request = client.chat.completions.create({
      model: 'gpt-test',
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          tool_calls: [
            {
              id: 'call_9',
              type: 'function',
              function: { name: 'skillhost_activate', arguments: '{}' },
            },
          ],
        },
        { role: 'user', content: 'Never mind.' },
      ],
    });
    await expect(request).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(request).rejects.toThrow(/call_9/);
  });
});
