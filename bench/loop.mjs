// Benchmarks the agent loop's own overhead: everything but the model's time and the tools' own
// work, against an instant in-process model (a LanguageModelV3 that streams its scripted answer
// at once), at 1 and at 1,000 skills. Per run of S steps:
//   T(k)       the loop, each step one model answer with k tool calls: a skill tool
//              (skillhost_read), or a host tool (workspace_read of a workspace file)
//   D(k)       the same k·S calls made directly with runtime.callTool (the tools' own work)
//   per step   (T(1) - D(1)) / S: one model request and one call's handling
//   per call   ((T(10) - D(10)) - (T(1) - D(1))) / (9·S): each further call in a step, the work
//              on the longer history included
// The floor, measured in the same run: the model's doStream alone on the same growing history
// (the prompt built by hand, the stream read to its end): what any loop over the provider layer
// pays; the ratio says what the loop adds. A second reference: the AI SDK's streamText alone on
// the same history (what the loop paid when it went through streamText).
// Targets: under 5 ms per step and under 2 ms per tool call.
// Usage: npm run bench:loop -- [--steps 40] [--rounds 5]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamText } from 'ai';
import { CANONICAL_TOOLS, createSkillRuntime, MemoryAuditSink } from '../dist/index.js';
import { runAgentLoop } from '../dist/internal.js';
import { nodeRuntimeDeps } from '../dist/node/index.js';
import { median, option } from './common.mjs';
import { generateTree } from './generate.mjs';

const steps = Number(option('steps', '40'));
const rounds = Number(option('rounds', '5'));
const cache = option('cache', '.bench-cache');

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The calls of each kind: a skill tool, and a host tool over the workspace. */
const CALLS = {
  skill: (skill) => ({
    name: 'skillhost_read',
    input: { name: skill, path: 'references/guide.md' },
  }),
  host: () => ({ name: 'workspace_read', input: { path: 'src/main.py' } }),
};

/** An instant model: answer n of a run is `calls` tool calls, and the last one is text. */
function instantModel(calls, call, total) {
  let answered = 0;
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'instant',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('streaming only');
    },
    doStream: async () => {
      answered += 1;
      const last = answered >= total;
      const parts = [{ type: 'stream-start', warnings: [] }];
      if (last) {
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Done.' },
          { type: 'text-end', id: 't' },
        );
      } else {
        for (let index = 0; index < calls; index += 1)
          parts.push({
            type: 'tool-call',
            toolCallId: `call_${answered}_${index}`,
            toolName: call.name,
            input: JSON.stringify(call.input),
          });
      }
      parts.push({
        type: 'finish',
        finishReason: {
          unified: last ? 'stop' : 'tool-calls',
          raw: last ? 'end_turn' : 'tool_use',
        },
        usage,
      });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

function openRuntime(root, workspace) {
  return createSkillRuntime({
    sources: [{ id: 'bench', kind: 'explicit', root, trust: 'trusted', enabled: true }],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink: new MemoryAuditSink(), sessionId: 'bench' },
    deps: nodeRuntimeDeps(),
    keepScans: false,
    // The host tools over a small project, read-only: their reads are allowed by default.
    scripts: { workspace: { path: workspace, writable: false } },
    workspaceTools: true,
  });
}

async function loopTime(runtime, call, calls) {
  const model = instantModel(calls, call, steps);
  const started = performance.now();
  const end = await runAgentLoop({
    runtime,
    models: [{ provider: 'anthropic', model: 'instant', load: async () => model }],
    system: 'You are a benchmark agent.',
    messages: [{ role: 'user', content: 'go' }],
    // A budget as agents set one: the request is counted before every step.
    limits: { maxSteps: steps + 1, contextBudget: 100_000_000 },
  });
  const elapsed = performance.now() - started;
  if (end.status !== 'done') throw new Error(`the loop ended ${end.status}: ${end.reason}`);
  const results = end.messages.flatMap((message) =>
    message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
  );
  if (results.length !== (steps - 1) * calls || results.some((part) => part.output.type !== 'text'))
    throw new Error(
      `the loop answered ${results.length} calls, not ${(steps - 1) * calls}, or one failed: ${JSON.stringify(results.find((part) => part.output.type !== 'text'))}`,
    );
  return elapsed;
}

async function directTime(runtime, call, calls) {
  const started = performance.now();
  for (let index = 0; index < (steps - 1) * calls; index += 1) {
    const result = await runtime.callTool(call.name, call.input);
    if (result.isError) throw new Error(result.text);
  }
  return performance.now() - started;
}

const SYSTEM = 'You are a benchmark agent.';
const RESULT = 'Naming rules and supported formats.';

/** The tool message that answers the calls of a step (both floors' histories grow by it). */
function toolResults(asked) {
  return {
    role: 'tool',
    content: asked.map((part) => ({
      type: 'tool-result',
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: { type: 'text', value: RESULT },
    })),
  };
}

/** The floor: the model's doStream alone on a history that grows the same way. */
async function floorTime(calls, call) {
  const model = instantModel(calls, call, steps);
  const prompt = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
  ];
  const started = performance.now();
  for (let step = 0; step < steps; step += 1) {
    const { stream } = await model.doStream({ prompt: [...prompt] });
    const asked = [];
    const content = [];
    for await (const part of stream) {
      if (part.type === 'text-delta') content.push({ type: 'text', text: part.delta });
      if (part.type === 'tool-call') {
        const input = JSON.parse(part.input);
        asked.push(part);
        content.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input,
        });
      }
    }
    prompt.push({ role: 'assistant', content });
    if (asked.length > 0) prompt.push(toolResults(asked));
  }
  return performance.now() - started;
}

/** The second reference: streamText alone on the same instant model and history. */
async function streamTextTime(calls, call) {
  const model = instantModel(calls, call, steps);
  const messages = [{ role: 'user', content: 'go' }];
  const started = performance.now();
  for (let step = 0; step < steps; step += 1) {
    const result = streamText({ model, system: SYSTEM, messages, maxRetries: 0 });
    for await (const _part of result.fullStream);
    const response = await result.response;
    messages.push(...response.messages.filter((message) => message.role === 'assistant'));
    const asked = response.messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === 'tool-call')
        : [],
    );
    if (asked.length > 0) messages.push(toolResults(asked));
  }
  return performance.now() - started;
}

const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-loop-'));
const project = join(scratch, 'project');
mkdirSync(join(project, 'src'), { recursive: true });
writeFileSync(
  join(project, 'src', 'main.py'),
  Array.from({ length: 40 }, (_, line) => `print("line ${line + 1}")`).join('\n'),
);
console.log(
  `agent loop overhead: ${steps} steps a run, median of ${rounds} rounds (instant model)`,
);
const perStep = (t1) => t1 / steps;
const perCall = (t1, t10) => (t10 - t1) / (9 * (steps - 1));
const ms = (value) => `${value.toFixed(3)} ms`;
// A ratio over a floor of a few microseconds says nothing: below 0.01 ms the difference is shown.
const times = (value, floor, digits = 1) =>
  floor >= 0.01
    ? `${(value / floor).toFixed(digits)}×`
    : `${value >= floor ? '+' : ''}${ms(value - floor)} (floor ≈ 0)`;
for (const count of [1, 1000]) {
  const root = count === 1 ? generateTree(scratch, 1) : generateTree(cache, count);
  for (const kind of ['skill', 'host']) {
    const samples = { step: [], call: [], floorStep: [], floorCall: [], sdkStep: [], sdkCall: [] };
    for (let round = 0; round < rounds + 1; round += 1) {
      const runtime = openRuntime(root, project);
      const call = CALLS[kind](runtime.offered()[0].name);
      const t1 = await loopTime(runtime, call, 1);
      const t10 = await loopTime(runtime, call, 10);
      const d1 = await directTime(runtime, call, 1);
      const d10 = await directTime(runtime, call, 10);
      const f1 = await floorTime(1, call);
      const f10 = await floorTime(10, call);
      const s1 = await streamTextTime(1, call);
      const s10 = await streamTextTime(10, call);
      await runtime.close();
      if (round === 0) continue; // warm-up
      samples.step.push(perStep(t1 - d1));
      samples.call.push(perCall(t1 - d1, t10 - d10));
      samples.floorStep.push(perStep(f1));
      samples.floorCall.push(perCall(f1, f10));
      samples.sdkStep.push(perStep(s1));
      samples.sdkCall.push(perCall(s1, s10));
    }
    const [step, call, floorStep, floorCall, sdkStep, sdkCall] = [
      samples.step,
      samples.call,
      samples.floorStep,
      samples.floorCall,
      samples.sdkStep,
      samples.sdkCall,
    ].map(median);
    console.log(
      `  ${String(count).padStart(5)} skills, ${kind === 'skill' ? 'skill tool (skillhost_read)' : 'host tool (workspace_read)'}`,
    );
    console.log(
      `    per step:      loop ${ms(step)} (target < 5); floor (doStream alone) ${ms(floorStep)}, loop/floor ${times(step, floorStep)}; streamText alone ${ms(sdkStep)}, loop/streamText ${times(step, sdkStep, 2)}`,
    );
    console.log(
      `    per tool call: loop ${ms(call)} (target < 2); floor (doStream alone) ${ms(floorCall)}, loop/floor ${times(call, floorCall)}; streamText alone ${ms(sdkCall)}, loop/streamText ${times(call, sdkCall, 2)}`,
    );
  }
}
