import { describe, expect, it } from 'vitest';
import { skillTools } from '../../src/adapters/ai-sdk/index.js';
import { runAnthropicToolUses } from '../../src/adapters/anthropic/index.js';
import { runOpenAIFunctionCalls, runOpenAIToolCalls } from '../../src/adapters/openai/index.js';
import { reportWorld } from '../helpers/runtime.js';

// The full round trips over each vendor's client run everywhere with the scripted runner
// (test/adapters/); here each adapter's calls reach the real sandbox.
const activate = JSON.stringify({ name: 'tool' });
const run = JSON.stringify({ name: 'tool', script: 'scripts/report.sh', args: ['March 2025'] });

describe('each adapter runs the report script in bubblewrap', () => {
  it('Anthropic tool_use blocks', async () => {
    const { runtime } = reportWorld({ runner: 'bubblewrap' });
    const content = [
      { type: 'tool_use', id: 'toolu_1', name: 'skillhost_activate', input: JSON.parse(activate) },
      { type: 'tool_use', id: 'toolu_2', name: 'skillhost_run', input: JSON.parse(run) },
    ];
    const results = await runAnthropicToolUses(runtime, content);
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_2', is_error: false });
    expect(results[1]?.content).toContain('report for March 2025');
  });

  it('OpenAI Chat Completions tool calls', async () => {
    const { runtime } = reportWorld({ runner: 'bubblewrap' });
    const messages = await runOpenAIToolCalls(runtime, {
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'skillhost_activate', arguments: activate },
        },
        { id: 'call_2', type: 'function', function: { name: 'skillhost_run', arguments: run } },
      ],
    });
    expect(messages[1]?.content).toContain('report for March 2025');
  });

  it('OpenAI Responses function calls', async () => {
    const { runtime } = reportWorld({ runner: 'bubblewrap' });
    const output = [
      { type: 'function_call', call_id: 'call_1', name: 'skillhost_activate', arguments: activate },
      { type: 'function_call', call_id: 'call_2', name: 'skillhost_run', arguments: run },
    ];
    const outputs = await runOpenAIFunctionCalls(runtime, output);
    expect(outputs[1]?.output).toContain('report for March 2025');
  });

  it('an AI SDK tool set', async () => {
    const { runtime } = reportWorld({ runner: 'bubblewrap' });
    const tools = skillTools(runtime);
    const options = { toolCallId: 'call', messages: [] };
    await tools.skillhost_activate?.execute?.(JSON.parse(activate), options);
    const result = await tools.skillhost_run?.execute?.(JSON.parse(run), options);
    expect(result).toMatchObject({
      isError: false,
      text: expect.stringContaining('report for March 2025'),
      data: { exitCode: 0, sandbox: 'bubblewrap' },
    });
  });
});
