import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicTools, runAnthropicToolUses } from '../../../src/adapters/anthropic/index.js';
import { golden } from '../../helpers/golden.js';
import { type ScriptedTurn, startModelServer } from '../../helpers/model-servers.js';
import { REPORT_FILES, reportWorld, world } from '../../helpers/runtime.js';

/** Runs a conversation as a host would: call tools until the model answers with text. */
async function converse(
  runtime: ReturnType<typeof reportWorld>['runtime'],
  turns: readonly ScriptedTurn[],
) {
  const server = await startModelServer({ anthropic: turns });
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  const tools: Anthropic.Messages.Tool[] = anthropicTools(runtime);
  const messages: Anthropic.Messages.MessageParam[] = [
    { role: 'user', content: 'Make the monthly report.' },
  ];
  let reply: Anthropic.Messages.Message | undefined;
  for (let turn = 0; turn < turns.length; turn += 1) {
    reply = await client.messages.create({
      model: 'claude-test',
      max_tokens: 1024,
      system: runtime.catalog().text,
      tools,
      messages,
    });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    const results: Anthropic.Messages.ToolResultBlockParam[] = await runAnthropicToolUses(
      runtime,
      reply.content,
    );
    messages.push({ role: 'user', content: results });
  }
  return { server, reply };
}

/** The tool_result blocks the server received in the last user message of a request. */
function resultsSent(body: { messages: Array<{ role: string; content: unknown }> }) {
  return body.messages.at(-1)?.content;
}

describe('skillhost/anthropic over the real Anthropic client and HTTP', () => {
  it('defines the tools in the Messages API shape: name, description, input_schema', () => {
    const { runtime } = reportWorld();
    expect(anthropicTools(runtime)).toEqual(golden('anthropic-tools.json'));
  });

  it('activates a skill, runs its script and reads a reference in a full round trip', async () => {
    const w = reportWorld();
    const { server, reply } = await converse(w.runtime, [
      { toolCalls: [{ id: 'toolu_1', name: 'skillhost_activate', input: { name: 'tool' } }] },
      {
        toolCalls: [
          {
            id: 'toolu_2',
            name: 'skillhost_run',
            input: { name: 'tool', script: 'scripts/report.sh', args: ['March 2025'] },
          },
          {
            id: 'toolu_3',
            name: 'skillhost_read',
            input: { name: 'tool', path: 'references/guide.md' },
          },
        ],
      },
      { text: 'The March report is ready.' },
    ]);

    expect(reply?.content).toEqual([{ type: 'text', text: 'The March report is ready.' }]);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toMatch(/^Anthropic\/JS /);
      expect(request.body.tools).toEqual(golden('anthropic-tools.json'));
    }
    expect(server.requests[0]?.body.system).toBe(w.runtime.catalog().text);

    expect(resultsSent(server.requests[1]?.body)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: expect.stringContaining('Do the thing.'),
        is_error: false,
      },
    ]);
    expect(resultsSent(server.requests[2]?.body)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        content: expect.stringContaining('report for March 2025'),
        is_error: false,
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_3',
        content: REPORT_FILES['references/guide.md'],
        is_error: false,
      },
    ]);

    const events = w.records().map((record) => record.event);
    expect(events).toContain('script-run');
    // The decision on the run names the model's id of the call it was about.
    const decisions = w.records().filter((record) => record.event === 'permission-decide');
    expect(decisions.length).toBeGreaterThan(0);
    for (const record of decisions)
      expect(record.tool_or_script_calls).toEqual([
        expect.objectContaining({ script: 'scripts/report.sh', tool_call_id: 'toolu_2' }),
      ]);
    expect(w.records().find((record) => record.event === 'skill-activate')).toMatchObject({
      skill_name: 'tool',
      triggered_by: 'model',
    });
    expect(w.intact()).toBe(true);
  });

  it('answers bad calls with is_error results the model receives', async () => {
    const w = reportWorld();
    const { server, reply } = await converse(w.runtime, [
      {
        toolCalls: [
          { id: 'toolu_1', name: 'delete_everything', input: {} },
          { id: 'toolu_2', name: 'skillhost_activate', input: { name: 42 } },
          { id: 'toolu_3', name: 'skillhost_read', input: { name: 'tool', path: '../x' } },
        ],
      },
      { text: 'I could not do that.' },
    ]);

    expect(reply?.stop_reason).toBe('end_turn');
    const sent = resultsSent(server.requests[1]?.body) as Array<Record<string, unknown>>;
    expect(sent.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_1', true],
      ['toolu_2', true],
      ['toolu_3', true],
    ]);
    expect(sent[0]?.content).toContain('TOOL_UNKNOWN');
    expect(sent[1]?.content).toContain('TOOL_INPUT_INVALID');
    expect(w.records().some((record) => record.event === 'skill-activate')).toBe(false);
  });

  it('leaves the host its own tools when told to skip them', async () => {
    const { runtime } = reportWorld();
    const content = [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'toolu_2', name: 'skillhost_activate', input: { name: 'tool' } },
      // A former name, deprecated: still the runtime's, still answered.
      { type: 'tool_use', id: 'toolu_3', name: 'search_skills', input: { query: 'tool' } },
    ];
    const skipped = await runAnthropicToolUses(runtime, content, { otherTools: 'skip' });
    expect(skipped.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_2', false],
      ['toolu_3', false],
    ]);
    const answered = await runAnthropicToolUses(runtime, content);
    expect(answered.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_1', true],
      ['toolu_2', false],
      ['toolu_3', false],
    ]);
  });

  it('talks to a server that, like the real API, refuses a tool_use left without its result', async () => {
    const server = await startModelServer({ anthropic: [{ text: 'unreachable' }] });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const request = client.messages.create({
      model: 'claude-test',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_9', name: 'skillhost_activate', input: {} }],
        },
        { role: 'user', content: 'Never mind.' },
      ],
    });
    await expect(request).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(request).rejects.toThrow(/toolu_9/);
  });

  it('offers no tools without a usable skill', () => {
    const { runtime } = world({ options: { scope: [] } });
    expect(anthropicTools(runtime)).toEqual([]);
  });
});
