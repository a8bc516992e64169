import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactContext } from '../../src/context/compact.js';
import { ContextManager } from '../../src/context/manager.js';
import { TokenMeter } from '../../src/context/meter.js';
import { PRUNED_PREFIX } from '../../src/context/prune.js';
import { splitPoint } from '../../src/context/split.js';
import type { SummaryRequest } from '../../src/context/summary-input.js';
import { estimateTokens } from '../../src/format/tokens.js';
import { answer, call, result, skillsWorld, user } from '../helpers/context.js';

/** A summariser that records what it was sent. */
function recordingSummarizer(text = 'They worked through the tasks.') {
  const sent: SummaryRequest[] = [];
  return {
    sent,
    summarize: async (request: SummaryRequest) => {
      sent.push(request);
      return { text, inputTokens: estimateTokens(request.prompt), outputTokens: 7 };
    },
  };
}

/** The compacted context's first message: marker, summary, skills state. */
function partsOf(messages: readonly ModelMessage[]): string[] {
  const first = messages[0];
  if (first?.role !== 'user' || typeof first.content === 'string') return [];
  return first.content.map((part) => (part.type === 'text' ? part.text : ''));
}

describe('compaction', () => {
  it('keeps the most recently used of six skills over 25,000 tokens in full, the rest as stubs, and sends the summariser no skill text', async () => {
    // In order of use, oldest first: the newest is over a skill's cap, the oldest does not fit.
    const sizes = {
      oldest: 4_800,
      second: 4_800,
      third: 4_800,
      fourth: 4_800,
      fifth: 4_800,
      big: 7_000,
    };
    const world = skillsWorld(sizes);
    const context = new ContextManager({ contextWindow: 200_000 });
    const messages: ModelMessage[] = [];
    let id = 0;
    for (const name of Object.keys(sizes)) {
      context.ledger.nextStep();
      id += 1;
      messages.push(user(`Use ${name}.`), call(`c${id}`, 'skillhost_activate', { name }));
      const activated = await context.callTool(world.runtime, 'skillhost_activate', { name });
      messages.push(
        result(`c${id}`, 'skillhost_activate', activated.text),
        answer(`Used ${name}.`),
      );
    }
    const total = context.ledger.entries().reduce((sum, entry) => sum + entry.tokens, 0);
    expect(total).toBeGreaterThan(25_000);
    for (const entry of context.ledger.entries())
      if (entry.name !== 'big') expect(entry.tokens).toBeGreaterThan(4_000);
      else expect(entry.tokens).toBeGreaterThan(5_000);
    expect(
      Math.max(
        ...context.ledger
          .entries()
          .filter((e) => e.name !== 'big')
          .map((e) => e.tokens),
      ),
    ).toBeLessThan(5_000);
    // The user's own activation (`/skill TASK` in a chat) puts a body in a user message.
    const chatActivation = world.runtime.activate('third', { triggeredBy: 'user', resend: true });
    messages.push(user(`${chatActivation.text}\n\nAnd once more with third.`), answer('Done.'));
    // Then turns without skills: the recent tail the compaction keeps verbatim.
    for (let index = 0; index < 6; index += 1)
      messages.push(user(`Question ${index}?`), answer(`Reply ${index}: ${'word '.repeat(2_500)}`));
    messages.push(user('What next?'));

    const summarizer = recordingSummarizer();
    const outcome = await context.compact({
      trigger: 'manual',
      system: 'S',
      tools: [],
      messages,
      model: 'claude-sonnet-4-5',
      summarize: summarizer.summarize,
    });
    expect(outcome.changed).toBe(true);
    expect(outcome.event).toMatchObject({
      type: 'compaction',
      trigger: 'manual',
      summarized: true,
      kept: ['fifth', 'fourth', 'third', 'second'],
      truncated: ['big'],
      demoted: ['oldest'],
    });
    const [marker, summary, skills] = partsOf(outcome.messages);
    expect(marker).toMatch(
      /^\[skillhost: the conversation was compacted \(trigger: manual; about [\d,]+ tokens before, [\d,]+ after\)/,
    );
    expect(summary).toContain('They worked through the tasks.');
    for (const name of ['fifth', 'fourth', 'third', 'second'])
      expect(skills).toContain(world.bodies[name]?.trimEnd());
    // The newest skill is cut at its head within 5,000 tokens, saying so.
    expect(skills).toContain('BODY-MARKER-big');
    expect(skills).not.toContain(world.bodies.big?.trimEnd());
    expect(skills).toMatch(
      /\[skill big truncated here: the first [\d,]+ of [\d,]+ tokens are shown; skillhost_activate \{"name":"big","hash":"[0-9a-f]{64}"\} gives all of it\]/,
    );
    // The oldest is a stub: name, source, description, summary, hash and the call that brings it back.
    const oldest = context.ledger.get('oldest');
    expect(skills).not.toContain('Step 9 of oldest');
    expect(skills).toContain('<skill_stub name="oldest" source="test">');
    expect(skills).toContain('Description: Does oldest work. Use when the task needs oldest.');
    expect(skills).toContain(`Summary: ${oldest?.summary}`);
    expect(oldest?.summary).toMatch(/^oldest guide: BODY-MARKER-oldest first line/);
    expect(skills).toContain(`sha256: ${oldest?.hash}`);
    expect(skills).toContain(`skillhost_activate {"name":"oldest","hash":"${oldest?.hash}"}`);
    // The last line names every skill not in full.
    expect(skills?.split('\n').at(-1)).toBe(
      'Not in full in this conversation: big (truncated), oldest (demoted). Call skillhost_activate as shown before relying on any of them.',
    );
    expect(context.ledger.get('oldest')?.state).toBe('demoted');
    expect(context.ledger.get('big')?.state).toBe('truncated');
    expect(context.ledger.get('fifth')?.state).toBe('full');
    // The summariser saw the skills named, never their text.
    expect(summarizer.sent).toHaveLength(1);
    const sent = JSON.stringify(summarizer.sent);
    for (const [name, body] of Object.entries(world.bodies)) {
      expect(sent).toContain(name);
      expect(sent).not.toContain(`BODY-MARKER-${name}`);
      expect(sent).not.toContain(body.split('\n')[3] as string);
    }
    expect(sent).not.toContain('<skill_content');
    expect(summarizer.sent[0]?.system).toContain(
      'never restate, quote or paraphrase'.replace('never', 'Never'),
    );
  });

  it('prunes old tool outputs, and makes no summary when that is enough', async () => {
    const world = skillsWorld({ alpha: 500 });
    const context = new ContextManager({ contextWindow: 40_000 });
    const threshold = context.limits('unknown-model').threshold;
    const messages: ModelMessage[] = [user('Look at the files.')];
    const activation = await context.callTool(world.runtime, 'skillhost_activate', {
      name: 'alpha',
    });
    messages.push(
      call('a', 'skillhost_activate', { name: 'alpha' }),
      result('a', 'skillhost_activate', activation.text),
    );
    const big = 'line of a large file with some words in it\n'.repeat(330);
    for (let index = 0; index < 10; index += 1)
      messages.push(
        call(`r${index}`, 'workspace_read', { path: `f${index}` }),
        result(`r${index}`, 'workspace_read', big),
      );
    const meter = new TokenMeter(estimateTokens);
    const before = meter.request('S', [], messages);
    expect(before).toBeGreaterThan(threshold);
    const summarizer = recordingSummarizer();
    const prepared = await context.prepare({
      system: 'S',
      tools: [],
      messages,
      model: 'unknown-model',
      summarize: summarizer.summarize,
    });
    expect(summarizer.sent).toHaveLength(0);
    const outcome = prepared.compaction;
    expect(outcome?.event).toMatchObject({ trigger: 'threshold', summarized: false });
    expect(outcome?.event.pruned).toBeGreaterThan(0);
    expect(outcome?.event.postTokens).toBeLessThanOrEqual(threshold * 0.75);
    const texts = (outcome?.messages ?? []).flatMap((message) =>
      message.role === 'tool'
        ? message.content.map((part) =>
            part.type === 'tool-result' && part.output.type === 'text' ? part.output.value : '',
          )
        : [],
    );
    // The activation is never pruned; the newest output is kept; older ones are placeholders.
    expect(texts[0]).toBe(activation.text);
    expect(texts.at(-1)).toBe(big);
    expect(
      texts.slice(1, 4).every((text) => text.startsWith(`${PRUNED_PREFIX}workspace_read (about `)),
    ).toBe(true);
    // The history given was not changed in place.
    expect(messages[4]).toEqual(result('r0', 'workspace_read', big));
  });

  it('never splits between a tool call and its result', () => {
    const conversation = fc.array(
      fc.record({
        user: fc.string({ maxLength: 200 }),
        steps: fc.array(
          fc.record({
            calls: fc.integer({ min: 1, max: 3 }),
            size: fc.integer({ min: 1, max: 2_000 }),
          }),
          { maxLength: 6 },
        ),
        answer: fc.option(fc.string({ maxLength: 300 })),
      }),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(conversation, fc.integer({ min: 0, max: 20_000 }), (turns, budget) => {
        const messages: ModelMessage[] = [];
        let id = 0;
        for (const turn of turns) {
          messages.push(user(turn.user));
          for (const step of turn.steps) {
            const ids = Array.from({ length: step.calls }, (_, index) => `id${id + index}`);
            id += step.calls;
            messages.push({
              role: 'assistant',
              content: ids.map((toolCallId) => ({
                type: 'tool-call' as const,
                toolCallId,
                toolName: 'workspace_read',
                input: {},
              })),
            });
            messages.push({
              role: 'tool',
              content: ids.map((toolCallId) => ({
                type: 'tool-result' as const,
                toolCallId,
                toolName: 'workspace_read',
                output: { type: 'text' as const, value: 'x '.repeat(step.size) },
              })),
            });
          }
          if (turn.answer !== null) messages.push(answer(turn.answer));
        }
        const start = splitPoint(messages, new TokenMeter(estimateTokens), budget);
        const tail = messages.slice(start);
        if (tail.length > 0) expect(['user', 'assistant']).toContain(tail[0]?.role);
        const called = new Set(
          tail.flatMap((message) =>
            message.role === 'assistant' && typeof message.content !== 'string'
              ? message.content.flatMap((part) =>
                  part.type === 'tool-call' ? [part.toolCallId] : [],
                )
              : [],
          ),
        );
        const answered = tail.flatMap((message) =>
          message.role === 'tool'
            ? message.content.flatMap((part) =>
                part.type === 'tool-result' ? [part.toolCallId] : [],
              )
            : [],
        );
        for (const toolCallId of answered) expect(called.has(toolCallId)).toBe(true);
        // And every call in the tail has its result there.
        expect(new Set(answered)).toEqual(called);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every call with its result through a whole compaction', async () => {
    const context = new ContextManager({ contextWindow: 10_000 });
    const messages: ModelMessage[] = [user('One long task.')];
    for (let index = 0; index < 40; index += 1)
      messages.push(
        call(`s${index}`, 'workspace_bash', { command: `step ${index}` }),
        result(`s${index}`, 'workspace_bash', `output ${index} `.repeat(60)),
      );
    const summarizer = recordingSummarizer();
    const outcome = await compactContext({
      trigger: 'threshold',
      system: 'S',
      tools: [],
      messages,
      ledger: context.ledger,
      meter: context.meter,
      budgets: { ...context.budgets(6_000), protectedTools: 100_000 },
      summarize: summarizer.summarize,
    });
    expect(outcome.event.summarized).toBe(true);
    const calls = new Set<string>();
    for (const message of outcome.messages) {
      if (message.role === 'assistant' && typeof message.content !== 'string')
        for (const part of message.content)
          if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (message.role === 'tool')
        for (const part of message.content)
          if (part.type === 'tool-result') expect(calls.has(part.toolCallId)).toBe(true);
    }
    // One turn of many steps: split inside it, and the user's own words are kept verbatim.
    expect(partsOf(outcome.messages)[1]).toContain(
      "The user's request in the current turn, verbatim:\nOne long task.",
    );
    expect(outcome.messages[1]?.role).toBe('assistant');
  });
});
