import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { ContextManager } from '../../src/context/manager.js';
import type { LoopEvent } from '../../src/loop/events.js';
import { type AgentLoopResult, runAgentLoop } from '../../src/loop/loop.js';
import { agentSystemPrompt } from '../../src/loop/prompt.js';
import { skillsWorld } from '../helpers/context.js';
import {
  type ScriptedAnswer,
  type ScriptedRequest,
  scriptedModel,
} from '../helpers/scripted-model.js';

/** The last message of a request, as the provider received it. */
function lastOf(request: ScriptedRequest) {
  return request.messages.at(-1);
}

/** A model that activates `skill`, reads its notes, then answers with `words` words. */
function worker(skillOf: (turn: number) => string, words: number) {
  let turn = -1;
  return (request: ScriptedRequest): ScriptedAnswer => {
    const last = lastOf(request);
    if (last?.role === 'user') {
      turn += 1;
      return { toolCalls: [{ name: 'skillhost_activate', input: { name: skillOf(turn) } }] };
    }
    const part = last?.role === 'tool' ? last.content[0] : undefined;
    if (part?.type === 'tool-result' && part.toolName === 'skillhost_activate')
      return {
        toolCalls: [
          { name: 'skillhost_read', input: { name: skillOf(turn), path: 'references/notes.md' } },
        ],
      };
    return { text: `Answer ${turn}: ${'word '.repeat(words)}` };
  };
}

/** A session as agent run and chat keep one: a history that turns append to and compactions replace. */
function session(options: {
  readonly runtime: ReturnType<typeof skillsWorld>['runtime'];
  readonly system: string;
  readonly context: ContextManager;
  readonly model: ReturnType<typeof scriptedModel>;
}) {
  const history: ModelMessage[] = [];
  const events: LoopEvent[] = [];
  return {
    history,
    events,
    async turn(task: string): Promise<AgentLoopResult> {
      history.push({ role: 'user', content: task });
      return runAgentLoop({
        runtime: options.runtime,
        models: [options.model.handle],
        system: options.system,
        messages: history,
        context: options.context,
        onEvent: (event) => events.push(event),
        onMessage: (message) => history.push(message),
        onHistory: (messages) => history.splice(0, history.length, ...messages),
        audit: (record) => options.runtime.recordAgentEvent(record),
      });
    },
  };
}

describe('the context lifecycle in the agent loop', () => {
  it('keeps the system prompt, catalog included, byte-identical through three compactions', async () => {
    const world = skillsWorld({ alpha: 600, beta: 600, gamma: 600, delta: 600 });
    const catalog = world.runtime.catalog().text;
    const system = agentSystemPrompt({
      instructions: 'You are a test agent.',
      skills: [],
      catalog,
    });
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    const model = scriptedModel({ answers: worker((turn) => names[turn % 4] as string, 300) });
    const context = new ContextManager({ contextWindow: 8_000 });
    const chat = session({ runtime: world.runtime, system, context, model });
    for (let index = 0; index < 12; index += 1) {
      const end = await chat.turn(`Task ${index}: do it.`);
      expect(end.status).toBe('done');
    }
    const compactions = chat.events.filter((event) => event.type === 'compaction');
    expect(compactions.filter((event) => event.summarized === true).length).toBeGreaterThanOrEqual(
      3,
    );
    const systems = new Set(model.turns().map((request) => request.system));
    expect(systems.size).toBe(1);
    expect([...systems][0]).toBe(system);
    expect(system).toContain(catalog);
    // The last request, after the compactions, still carries every skill of the catalog by name.
    for (const name of names)
      expect(model.turns().at(-1)?.system).toContain(`<name>${name}</name>`);
    // Each step says how large its request is and where compaction starts.
    const steps = chat.events.filter((event) => event.type === 'step');
    expect(steps.every((event) => event.contextWindow === 8_000)).toBe(true);
    expect(steps.every((event) => typeof event.contextTokens === 'number')).toBe(true);
    expect(steps[0]).toMatchObject({
      compactThreshold: context.limits('scripted-model').threshold,
    });
    // Every compaction is an audit record with the event's fields.
    const audited = world.records().filter((record) => record.event === 'context-compact');
    expect(audited).toHaveLength(compactions.length);
    expect(audited[0]?.details).toMatchObject({
      trigger: 'threshold',
      pre_tokens: compactions[0]?.type === 'compaction' ? compactions[0].preTokens : -1,
    });
  });

  it('compacts once on a context overflow, sends again once, then fails with MODEL_CONTEXT_TOO_LONG', async () => {
    const world = skillsWorld({ alpha: 600 });
    const tooLong = {
      fail: {
        status: 400,
        type: 'invalid_request_error',
        message: 'prompt is too long: 250000 tokens > 200000 maximum',
      },
    } as const;
    // Enough history for a head to summarise, well under the threshold by our count.
    const history: ModelMessage[] = [];
    for (let index = 0; index < 6; index += 1)
      history.push(
        { role: 'user', content: `Earlier task ${index}` },
        { role: 'assistant', content: `Earlier answer ${index}: ${'word '.repeat(200)}` },
      );
    history.push({ role: 'user', content: 'Now this.' });
    let failures = 1;
    const model = scriptedModel({
      answers: () => (failures-- > 0 ? tooLong : { text: 'Fits now.' }),
    });
    const events: LoopEvent[] = [];
    const context = new ContextManager({ contextWindow: 200_000 });
    const end = await runAgentLoop({
      runtime: world.runtime,
      models: [model.handle],
      system: 'S',
      messages: history,
      context,
      onEvent: (event) => events.push(event),
      audit: (record) => world.runtime.recordAgentEvent(record),
    });
    expect(end, JSON.stringify(events)).toMatchObject({ status: 'done', text: 'Fits now.' });
    expect(model.turns()).toHaveLength(2);
    expect(model.summaries()).toHaveLength(1);
    const compactions = events.filter((event) => event.type === 'compaction');
    expect(compactions).toEqual([
      expect.objectContaining({ trigger: 'overflow', summarized: true }),
    ]);
    // The second request is the compacted one: far smaller than the first.
    const [first, second] = model.turns();
    expect(second?.tokens).toBeLessThan((first?.tokens ?? 0) / 2);
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      code: 'MODEL_CONTEXT_TOO_LONG',
    });

    // Too long even after compacting: one compaction, one more request, then a clear error.
    failures = 5;
    const again: LoopEvent[] = [];
    const failed = await runAgentLoop({
      runtime: world.runtime,
      models: [model.handle],
      system: 'S',
      messages: [...history],
      context: new ContextManager({ contextWindow: 200_000 }),
      onEvent: (event) => again.push(event),
    });
    expect(failed).toMatchObject({ status: 'failed', code: 'MODEL_CONTEXT_TOO_LONG' });
    expect(failed.reason).toContain('even after compacting the context once');
    expect(failed.reason).toContain('prompt is too long');
    expect(model.turns()).toHaveLength(4);
    expect(again.filter((event) => event.type === 'compaction')).toHaveLength(1);
    expect(again.at(-1)).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'MODEL_CONTEXT_TOO_LONG',
    });

    // Without a context manager the same failure is the same clear error, at once.
    failures = 1;
    const plain = await runAgentLoop({
      runtime: world.runtime,
      models: [model.handle],
      system: 'S',
      messages: [...history],
    });
    expect(plain).toMatchObject({ status: 'failed', code: 'MODEL_CONTEXT_TOO_LONG' });
    expect(model.turns()).toHaveLength(5);
  });

  it('runs 200 turns with 20 skills within the window, losing no skill, the system prompt constant', async () => {
    const names = Array.from(
      { length: 20 },
      (_, index) => `skill-${String(index).padStart(2, '0')}`,
    );
    const world = skillsWorld(Object.fromEntries(names.map((name) => [name, 700])));
    const system = agentSystemPrompt({
      instructions: 'You are a test agent.',
      skills: [],
      catalog: world.runtime.catalog().text,
    });
    const window = 24_000;
    // Skills come in over time: a new one every ten turns, the known ones used again in between.
    const skillOf = (turn: number) =>
      names[turn % 10 === 0 ? turn / 10 : (turn * 7) % (Math.floor(turn / 10) + 1)] as string;
    const model = scriptedModel({ answers: worker(skillOf, 250) });
    const context = new ContextManager({ contextWindow: window });
    const chat = session({ runtime: world.runtime, system, context, model });
    const activated = new Set<string>();
    for (let turn = 0; turn < 200; turn += 1) {
      activated.add(skillOf(turn));
      const end = await chat.turn(`Task ${turn}`);
      expect(end.status, `turn ${turn}`).toBe('done');
      // Every skill activated so far is in the last request: its body (in full or its head), or its stub with a handle.
      const last = model.turns().at(-1) as ScriptedRequest;
      for (const name of activated) {
        const entry = context.ledger.get(name);
        expect(entry, `${name} at turn ${turn}`).toBeDefined();
        const present =
          last.json.includes(`BODY-MARKER-${name}`) ||
          (last.json.includes(`<skill_stub name=\\"${name}\\"`) &&
            last.json.includes(`\\"hash\\":\\"${entry?.hash}\\"`));
        expect(present, `${name} at turn ${turn}`).toBe(true);
      }
    }
    expect(activated.size).toBe(20);
    expect(model.turns().length).toBeGreaterThanOrEqual(600);
    for (const request of model.turns()) expect(request.tokens).toBeLessThanOrEqual(window);
    expect(new Set(model.turns().map((request) => request.system))).toEqual(new Set([system]));
    const compactions = chat.events.filter((event) => event.type === 'compaction');
    expect(compactions.filter((event) => event.summarized === true).length).toBeGreaterThan(5);
    // Each stub's handle works: the skill comes back, unchanged, by its hash.
    const demoted = context.ledger.entries().filter((entry) => entry.state === 'demoted');
    expect(demoted.length).toBeGreaterThan(0);
    for (const entry of demoted) {
      const back = await world.runtime.callTool('skillhost_activate', {
        name: entry.name,
        hash: entry.hash,
      });
      expect(back.isError).toBe(false);
      expect(back.text).toContain(`BODY-MARKER-${entry.name}`);
      expect(back.data).toMatchObject({ changed: false });
    }
    // The history was never counted again as a whole at each step: each message once.
    expect(context.meter.counted).toBeLessThan(model.turns().length * 4);
  });
});
