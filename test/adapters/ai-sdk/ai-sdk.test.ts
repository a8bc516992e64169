import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { SkillToolError, skillTools } from '../../../src/adapters/ai-sdk/index.js';
import { golden } from '../../helpers/golden.js';
import { REPORT_FILES, reportWorld, world } from '../../helpers/runtime.js';

const USAGE: LanguageModelV3GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function callsTurn(
  calls: ReadonlyArray<{ id: string; name: string; input: unknown }>,
): LanguageModelV3GenerateResult {
  return {
    content: calls.map((call) => ({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

function textTurn(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

/** The tool results a model received in the prompt of a call. */
function toolResultsSeen(model: MockLanguageModelV3, call: number) {
  return (model.doGenerateCalls[call]?.prompt ?? [])
    .flatMap((message) => (message.role === 'tool' ? message.content : []))
    .filter((part) => part.type === 'tool-result');
}

describe('skillhost/ai-sdk with generateText', () => {
  it('gives the model the runtime tools and runs its calls through the runtime', async () => {
    const w = reportWorld();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([{ id: 'call-1', name: 'skillhost_activate', input: { name: 'tool' } }]),
        callsTurn([
          {
            id: 'call-2',
            name: 'skillhost_run',
            input: { name: 'tool', script: 'scripts/report.sh', args: ['March 2025'] },
          },
          {
            id: 'call-3',
            name: 'skillhost_read',
            input: { name: 'tool', path: 'references/guide.md' },
          },
        ]),
        textTurn('The March report is ready.'),
      ],
    });

    const result = await generateText({
      model,
      system: w.runtime.catalog().text,
      prompt: 'Make the monthly report.',
      tools: skillTools(w.runtime),
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('The March report is ready.');
    expect(result.steps).toHaveLength(3);
    // What the model receives: the AI SDK's function tools, { type, name, description, inputSchema }.
    expect(model.doGenerateCalls[0]?.tools).toEqual(golden('ai-sdk-tools.json'));

    const [activated] = result.steps[0]?.toolResults ?? [];
    expect(activated).toMatchObject({ toolName: 'skillhost_activate', toolCallId: 'call-1' });
    expect(activated?.output).toMatchObject({
      isError: false,
      text: expect.stringContaining('Do the thing.'),
      data: { name: 'tool', files: expect.arrayContaining(['scripts/report.sh']) },
    });
    const [run, read] = result.steps[1]?.toolResults ?? [];
    expect(run?.output).toMatchObject({
      isError: false,
      text: expect.stringContaining('report for March 2025'),
      data: { exitCode: 0, sandbox: 'bubblewrap', approvedBy: 'policy' },
    });
    expect(read?.output).toMatchObject({
      isError: false,
      text: REPORT_FILES['references/guide.md'],
    });

    // The model reads text, not the structured result.
    expect(toolResultsSeen(model, 1)).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        output: { type: 'text', value: expect.stringContaining('Do the thing.') },
      }),
    ]);
    expect(toolResultsSeen(model, 2).find((part) => part.toolCallId === 'call-3')).toMatchObject({
      output: { type: 'text', value: REPORT_FILES['references/guide.md'] },
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
        expect.objectContaining({ script: 'scripts/report.sh', tool_call_id: 'call-2' }),
      ]);
    expect(w.intact()).toBe(true);
  });

  it('runs an activation and a script called in the same step, in order', async () => {
    const w = reportWorld();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([
          { id: 'call-1', name: 'skillhost_activate', input: { name: 'tool' } },
          {
            id: 'call-2',
            name: 'skillhost_run',
            input: { name: 'tool', script: 'scripts/report.sh', args: ['April'] },
          },
        ]),
        textTurn('Done.'),
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Go.',
      tools: skillTools(w.runtime),
      stopWhen: stepCountIs(3),
    });

    expect(result.steps[0]?.toolResults.map((part) => part.output)).toEqual([
      expect.objectContaining({ isError: false }),
      expect.objectContaining({
        isError: false,
        text: expect.stringContaining('report for April'),
      }),
    ]);
    const events = w.records().map((record) => record.event);
    expect(events.indexOf('skill-activate')).toBeLessThan(events.indexOf('script-run'));
  });

  it('hands the calls of a step to the runtime one at a time: one confirmation at a time', async () => {
    let asking = 0;
    let mostAtOnce = 0;
    const w = world({
      files: { 'scripts/ask.sh': '#!/bin/sh\necho "asked $1"\n' },
      deps: {
        confirm: async () => {
          asking += 1;
          mostAtOnce = Math.max(mostAtOnce, asking);
          await new Promise((resolve) => setImmediate(resolve));
          asking -= 1;
          return 'yes';
        },
      },
    });
    const run = (id: string, arg: string) => ({
      id,
      name: 'skillhost_run',
      input: { name: 'tool', script: 'scripts/ask.sh', args: [arg] },
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([
          { id: 'call-1', name: 'skillhost_activate', input: { name: 'tool' } },
          run('call-2', 'first'),
          run('call-3', 'second'),
        ]),
        textTurn('Done.'),
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Go.',
      tools: skillTools(w.runtime),
      stopWhen: stepCountIs(3),
    });

    expect(result.steps[0]?.toolResults.map((part) => part.output)).toEqual([
      expect.objectContaining({ isError: false }),
      expect.objectContaining({ text: expect.stringContaining('asked first') }),
      expect.objectContaining({ text: expect.stringContaining('asked second') }),
    ]);
    expect(mostAtOnce).toBe(1);
  });

  it('shows the model an error result as error text', async () => {
    const w = reportWorld();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([{ id: 'call-1', name: 'skillhost_activate', input: { name: 42 } }]),
        textTurn('I could not do that.'),
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Go.',
      tools: skillTools(w.runtime),
      stopWhen: stepCountIs(3),
    });

    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      isError: true,
      code: 'TOOL_INPUT_INVALID',
    });
    expect(toolResultsSeen(model, 1)).toEqual([
      expect.objectContaining({
        toolCallId: 'call-1',
        output: { type: 'error-text', value: expect.stringMatching(/^Error TOOL_INPUT_INVALID/) },
      }),
    ]);
    expect(w.records().some((record) => record.event === 'skill-activate')).toBe(false);
  });

  it('throws a SkillToolError for an error result when asked to', async () => {
    const w = reportWorld();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([{ id: 'call-1', name: 'skillhost_read', input: { name: 'nope', path: 'x' } }]),
        textTurn('I could not do that.'),
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Go.',
      tools: skillTools(w.runtime, { throwOnError: true }),
      stopWhen: stepCountIs(3),
    });

    const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(failure?.error).toBeInstanceOf(SkillToolError);
    expect(failure?.error).toMatchObject({
      toolName: 'skillhost_read',
      code: 'SKILL_NOT_FOUND',
    });
    expect(toolResultsSeen(model, 1)).toEqual([
      expect.objectContaining({
        toolCallId: 'call-1',
        output: { type: 'error-text', value: expect.stringContaining('SKILL_NOT_FOUND') },
      }),
    ]);
  });

  it('passes the host needsApproval through: an unapproved call does not run', async () => {
    const w = reportWorld();
    const asked: Array<[string, unknown]> = [];
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTurn([
          { id: 'call-1', name: 'skillhost_activate', input: { name: 'tool' } },
          {
            id: 'call-2',
            name: 'skillhost_run',
            input: { name: 'tool', script: 'scripts/report.sh' },
          },
        ]),
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Go.',
      tools: skillTools(w.runtime, {
        needsApproval: (toolName, input) => {
          asked.push([toolName, input]);
          return toolName === 'skillhost_run';
        },
      }),
      stopWhen: stepCountIs(3),
    });

    expect(asked.map(([toolName]) => toolName)).toEqual(['skillhost_activate', 'skillhost_run']);
    expect(asked[1]?.[1]).toEqual({ name: 'tool', script: 'scripts/report.sh' });
    expect(result.steps).toHaveLength(1);
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toEqual([
      expect.objectContaining({ toolCall: expect.objectContaining({ toolCallId: 'call-2' }) }),
    ]);
    expect(result.toolResults.map((part) => part.toolCallId)).toEqual(['call-1']);
    expect(w.records().some((record) => record.event === 'script-run')).toBe(false);
  });

  it('makes an empty tool set without a usable skill', () => {
    const { runtime } = world({ options: { scope: [] } });
    expect(skillTools(runtime)).toEqual({});
  });
});
