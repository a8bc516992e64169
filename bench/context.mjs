// Benchmarks the context lifecycle's own cost: a compaction of a 200-turn history of about
// 150,000 tokens with 20 activated skills, everything but the summariser's model time (the
// summariser here answers at once), and the trigger's token counting per step.
//   compaction (warm)  what a compaction costs in a session: the request was already counted by
//                      the trigger, so each message's size is known (the usual case)
//   compaction (cold)  the same with nothing counted before (the first request of a resumed session)
//   trigger per step   counting the next request after one message was added (incremental)
//   recount per step   counting the whole history again, as a loop without the meter would
// The floor, measured in the same run: one JSON serialisation of the history (any compaction
// must at least look at every message once). Target: a compaction under 20 ms.
// Usage: npm run bench:context -- [--rounds 15] [--turns 200]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens } from '../dist/format/tokens.js';
import { CANONICAL_TOOLS, createSkillRuntime, MemoryAuditSink } from '../dist/index.js';
import { ContextManager } from '../dist/internal.js';
import { nodeRuntimeDeps } from '../dist/node/index.js';
import { median, option } from './common.mjs';

const rounds = Number(option('rounds', '15'));
const turns = Number(option('turns', '200'));
const SKILLS = 20;

const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-context-'));
for (let index = 0; index < SKILLS; index += 1) {
  const name = `skill-${String(index).padStart(2, '0')}`;
  const steps = Array.from(
    { length: 90 },
    (_, step) =>
      `${step + 1}. Check the input of ${name}, then write the result to the report file.`,
  );
  mkdirSync(join(scratch, name, 'references'), { recursive: true });
  writeFileSync(
    join(scratch, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Does ${name} work. Use when the task needs ${name}.\n---\n# ${name}\n\nWhat ${name} is for.\n\n${steps.join('\n')}\n`,
  );
  writeFileSync(join(scratch, name, 'references', 'notes.md'), `Notes of ${name}.\n`);
}
const runtime = createSkillRuntime({
  sources: [{ id: 'bench', kind: 'explicit', root: scratch, trust: 'trusted', enabled: true }],
  policy: { tools: [...CANONICAL_TOOLS] },
  audit: { sink: new MemoryAuditSink(), sessionId: 'bench' },
  deps: nodeRuntimeDeps(),
});
const tools = runtime.tools();
const system = `You are a benchmark agent.\n\n${runtime.catalog().text}`;

/** The session: 200 turns, a skill activated every tenth turn, a tool output in each. */
let sessions = 0;
async function session() {
  // A session of its own: its activations are its own.
  sessions += 1;
  const agent = runtime.openSession({ id: `bench-${sessions}` });
  const context = new ContextManager({ contextWindow: 200_000 });
  const history = [];
  const output = 'A line of a file the agent read, with some words and numbers 12345.\n'.repeat(18);
  for (let turn = 0; turn < turns; turn += 1) {
    context.ledger.nextStep();
    history.push({ role: 'user', content: `Task ${turn}: look at the next part of the project.` });
    const id = `call_${turn}`;
    let call;
    let text;
    if (turn % 10 === 0 && turn / 10 < SKILLS) {
      const name = `skill-${String(turn / 10).padStart(2, '0')}`;
      call = { name: 'skillhost_activate', input: { name } };
      text = (await context.callTool(agent, call.name, call.input)).text;
    } else {
      call = { name: 'workspace_read', input: { path: `src/file${turn}.py` } };
      text = output;
    }
    history.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: call.name, input: call.input }],
    });
    history.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: call.name,
          output: { type: 'text', value: text },
        },
      ],
    });
    history.push({
      role: 'assistant',
      content: `Turn ${turn} done: ${'the part looks fine and the report was updated; '.repeat(7)}`,
    });
  }
  return { context, history };
}

const summarize = async () => ({ text: 'The agent went through the project part by part.' });
const request = (history) => ({
  trigger: 'threshold',
  system,
  tools,
  messages: history,
  model: 'claude-sonnet-4-5',
  summarize,
});

const samples = { warm: [], cold: [], floor: [], trigger: [], recount: [] };
let shape;
for (let round = 0; round < rounds + 1; round += 1) {
  const { context, history } = await session();
  // The floor: look at every message once.
  let started = performance.now();
  const serialised = JSON.stringify(history);
  const floor = performance.now() - started;
  // Cold: nothing counted yet.
  started = performance.now();
  const cold = await context.compact(request(history));
  const coldTime = performance.now() - started;
  // Warm: a fresh session whose trigger counted the request, as it does before every step.
  const again = await session();
  again.context.meter.request(system, tools, again.history);
  started = performance.now();
  const warm = await again.context.compact(request(again.history));
  const warmTime = performance.now() - started;
  // The trigger after one more message, incrementally; and a recount of everything.
  const grown = [...again.history];
  again.context.meter.request(system, tools, grown);
  grown.push({ role: 'user', content: 'One more task.' });
  started = performance.now();
  again.context.meter.request(system, tools, grown);
  const trigger = performance.now() - started;
  started = performance.now();
  estimateTokens(system) +
    estimateTokens(JSON.stringify(tools)) +
    estimateTokens(JSON.stringify(grown));
  const recount = performance.now() - started;
  if (round === 0) {
    shape = {
      tokens: cold.event.preTokens,
      after: cold.event.postTokens,
      event: warm.event,
      bytes: serialised.length,
    };
    continue; // warm-up
  }
  samples.warm.push(warmTime);
  samples.cold.push(coldTime);
  samples.floor.push(floor);
  samples.trigger.push(trigger);
  samples.recount.push(recount);
}
await runtime.close();

const m = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)]));
const ms = (value) => `${value.toFixed(3)} ms`;
console.log(
  `context lifecycle: ${turns} turns, ${SKILLS} skills, about ${shape.tokens.toLocaleString('en-US')} tokens (${(shape.bytes / 1024).toFixed(0)} KiB of messages) → ${shape.after.toLocaleString('en-US')} after; median of ${rounds} rounds`,
);
console.log(
  `  kept ${shape.event.kept.length}, truncated ${shape.event.truncated.length}, demoted ${shape.event.demoted.length}, outputs pruned ${shape.event.pruned}, summarised: ${shape.event.summarized}`,
);
console.log(`  floor (one JSON pass over the history)   ${ms(m.floor)}`);
console.log(
  `  compaction, warm (trigger counted first)  ${ms(m.warm)}  (target < 20 ms)  ${(m.warm / m.floor).toFixed(2)}× floor`,
);
console.log(
  `  compaction, cold (nothing counted)        ${ms(m.cold)}  ${(m.cold / m.floor).toFixed(2)}× floor`,
);
console.log(`  trigger per step (incremental count)      ${ms(m.trigger)}`);
console.log(
  `  recount per step (whole history again)    ${ms(m.recount)}  ${(m.recount / Math.max(m.trigger, 0.001)).toFixed(0)}× the incremental count`,
);
