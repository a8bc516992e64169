// Benchmarks the agent loop's own overhead: everything but the model's time and the tools' own
// work, against an instant in-process model (a LanguageModelV3 that streams its scripted answer
// at once), at 1 and at 1,000 skills. Per run of S steps:
//   T(k)       the loop, each step one model answer with k tool calls: a skill tool
//              (read_skill_resource), or a host tool (workspace_read of a workspace file)
//   D(k)       the same k·S calls made directly with runtime.callTool (the tools' own work)
//   per step   (T(1) - D(1)) / S: one model request and one call's handling, the SDK included
//   per call   ((T(10) - D(10)) - (T(1) - D(1))) / (9·S): each further call in a step, the SDK's
//              work on the longer history included
// The floor, measured in the same run: the AI SDK's streamText alone on the same model and the
// same growing history (what any loop over the SDK pays); the ratio says what the loop adds.
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
    name: 'read_skill_resource',
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

/** The floor: streamText alone on the same instant model and a history that grows the same way. */
async function floorTime(calls, call) {
  const model = instantModel(calls, call, steps);
  const messages = [{ role: 'user', content: 'go' }];
  const started = performance.now();
  for (let step = 0; step < steps; step += 1) {
    const result = streamText({
      model,
      system: 'You are a benchmark agent.',
      messages,
      maxRetries: 0,
    });
    for await (const _part of result.fullStream);
    const response = await result.response;
    messages.push(...response.messages.filter((message) => message.role === 'assistant'));
    const asked = response.messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === 'tool-call')
        : [],
    );
    if (asked.length > 0)
      messages.push({
        role: 'tool',
        content: asked.map((part) => ({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: { type: 'text', value: 'Naming rules and supported formats.' },
        })),
      });
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
for (const count of [1, 1000]) {
  const root = count === 1 ? generateTree(scratch, 1) : generateTree(cache, count);
  for (const kind of ['skill', 'host']) {
    const samples = { step: [], call: [], floorStep: [] };
    for (let round = 0; round < rounds + 1; round += 1) {
      const runtime = openRuntime(root, project);
      const call = CALLS[kind](runtime.offered()[0].name);
      const t1 = await loopTime(runtime, call, 1);
      const t10 = await loopTime(runtime, call, 10);
      const d1 = await directTime(runtime, call, 1);
      const d10 = await directTime(runtime, call, 10);
      const f1 = await floorTime(1, call);
      await runtime.close();
      if (round === 0) continue; // warm-up
      samples.call.push((t10 - d10 - (t1 - d1)) / (9 * (steps - 1)));
      samples.step.push((t1 - d1) / steps);
      samples.floorStep.push(f1 / steps);
    }
    const step = median(samples.step);
    const call = median(samples.call);
    const floor = median(samples.floorStep);
    console.log(
      `  ${String(count).padStart(5)} skills, ${kind === 'skill' ? 'skill tool (read_skill_resource)' : 'host tool (workspace_read)  '}: ${step.toFixed(3)} ms per step (target < 5), ${call.toFixed(3)} ms per tool call (target < 2); floor (streamText alone) ${floor.toFixed(3)} ms per step, loop/floor ${(step / floor).toFixed(2)}×`,
    );
  }
}
