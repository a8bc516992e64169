import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  openaiResponsesTools,
  runOpenAIFunctionCalls,
} from '../../../src/adapters/openai/index.js';
import { golden } from '../../helpers/golden.js';
import { type ScriptedTurn, startModelServer } from '../../helpers/model-servers.js';
import { reportWorld } from '../../helpers/runtime.js';

/** Runs a conversation as a host would, sending the whole input each time (nothing stored). */
async function converse(
  runtime: ReturnType<typeof reportWorld>['runtime'],
  turns: readonly ScriptedTurn[],
) {
  const server = await startModelServer({ responses: turns });
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const tools: OpenAI.Responses.FunctionTool[] = openaiResponsesTools(runtime);
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Make the monthly report.' },
  ];
  let answer = '';
  for (let turn = 0; turn < turns.length; turn += 1) {
    const response = await client.responses.create({
      model: 'gpt-test',
      instructions: runtime.catalog().text,
      store: false,
      tools,
      input,
    });
    const outputs: OpenAI.Responses.ResponseInputItem.FunctionCallOutput[] =
      await runOpenAIFunctionCalls(runtime, response.output);
    if (outputs.length === 0) {
      answer = response.output_text;
      break;
    }
    for (const item of response.output) if (item.type === 'function_call') input.push(item);
    input.push(...outputs);
  }
  return { server, answer };
}

/** The function_call_output items the server received in a request. */
function outputsSent(body: { input: Array<{ type?: string }> }) {
  return body.input.filter((item) => item.type === 'function_call_output');
}

describe('skillhost/openai Responses over the real OpenAI client and HTTP', () => {
  it('defines the tools in the Responses shape: type function, name, ..., never strict', () => {
    const { runtime } = reportWorld();
    expect(openaiResponsesTools(runtime)).toEqual(golden('openai-responses-tools.json'));
  });

  it('activates a skill and runs its script in a full round trip', async () => {
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
        ],
      },
      { text: 'The March report is ready.' },
    ]);

    expect(answer).toBe('The March report is ready.');
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests)
      expect(request.body.tools).toEqual(golden('openai-responses-tools.json'));
    expect(outputsSent(server.requests[1]?.body)).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: expect.stringContaining('Do the thing.'),
      },
    ]);
    expect(outputsSent(server.requests[2]?.body)[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_2',
      output: expect.stringContaining('report for March 2025'),
    });
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
  });

  it('answers an unknown tool and arguments that are not JSON with error outputs', async () => {
    const w = reportWorld();
    const { server, answer } = await converse(w.runtime, [
      {
        toolCalls: [
          { id: 'call_1', name: 'delete_everything', input: {} },
          { id: 'call_2', name: 'skillhost_activate', rawArguments: 'name=tool' },
        ],
      },
      { text: 'I could not do that.' },
    ]);

    expect(answer).toBe('I could not do that.');
    expect(outputsSent(server.requests[1]?.body)).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: expect.stringMatching(/^Error TOOL_UNKNOWN: /),
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: expect.stringMatching(/^Error TOOL_INPUT_INVALID: .*not valid JSON/),
      },
    ]);
    expect(w.records().some((record) => record.event === 'skill-activate')).toBe(false);
  });

  it('leaves the host its own functions when told to skip them', async () => {
    const { runtime } = reportWorld();
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
      {
        type: 'function_call',
        call_id: 'call_2',
        name: 'skillhost_search',
        arguments: '{"query":"x"}',
      },
    ];
    const skipped = await runOpenAIFunctionCalls(runtime, output, { otherTools: 'skip' });
    expect(skipped.map((item) => item.call_id)).toEqual(['call_2']);
    const answered = await runOpenAIFunctionCalls(runtime, output);
    expect(answered.map((item) => item.call_id)).toEqual(['call_1', 'call_2']);
  });
});
