import { describe, expect, it } from 'vitest';
import { SkillLedger, skillSummary } from '../../src/context/ledger.js';
import { ContextManager } from '../../src/context/manager.js';
import { renderSkillsState } from '../../src/context/skills-state.js';
import { skillsWorld } from '../helpers/context.js';

describe('the skill ledger', () => {
  it('summarises a body by its first heading and lines, without a model', () => {
    expect(
      skillSummary('# PDF tools\n\nFill forms and merge files.\n\n## Steps\n1. Open it.'),
    ).toBe('PDF tools: Fill forms and merge files. Open it.');
    expect(skillSummary('No heading here.\nSecond line.')).toBe('No heading here. Second line.');
    const long = skillSummary(`# T\n\n${'word '.repeat(200)}`);
    expect(long.length).toBeLessThanOrEqual(300);
    expect(long.endsWith('…')).toBe(true);
    // The activation wrapper and the file listing are not the body.
    const wrapped =
      '<skill_content name="x" source="s" trust="trusted">\nSkill directory: /s/x\nRelative paths in these instructions are relative to that directory.\n\n# X\n\nDoes x.\n\nFiles in the skill (read them with the skillhost_read tool):\n- a.md (1 B)\n</skill_content>';
    expect(skillSummary(wrapped)).toBe('X: Does x.');
  });

  it('makes each summary once per content hash, tracks use, and restores the same ledger and skills state', async () => {
    const world = skillsWorld({ alpha: 300, beta: 300, gamma: 300 });
    const saved: unknown[] = [];
    const context = new ContextManager({ onLedger: (record) => saved.push(record) });
    const step = () => context.ledger.nextStep();
    step();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'alpha' });
    step();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'beta' });
    // A second activation by name is deduplicated by the runtime: a use, not a new summary.
    step();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'alpha' });
    step();
    await context.callTool(world.runtime, 'skillhost_read', {
      name: 'beta',
      path: 'references/notes.md',
    });
    step();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'gamma' });
    // Brought back by its hash: the same content, so the same summary, not made again.
    step();
    const alpha = context.ledger.get('alpha');
    await context.callTool(world.runtime, 'skillhost_activate', {
      name: 'alpha',
      hash: alpha?.hash,
    });
    expect(context.ledger.summariesMade).toBe(3);
    expect(context.ledger.get('alpha')).toMatchObject({
      activatedStep: 1,
      lastUsedStep: 6,
      state: 'full',
    });
    expect(context.ledger.get('beta')).toMatchObject({ activatedStep: 2, lastUsedStep: 4 });
    expect(context.ledger.get('gamma')).toMatchObject({
      source: 'test',
      trusted: true,
      description: 'Does gamma work. Use when the task needs gamma.',
      summary: expect.stringMatching(/^gamma guide: BODY-MARKER-gamma/),
    });
    expect(context.ledger.get('gamma')?.hash).toMatch(/^[0-9a-f]{64}$/);
    // A ledger record after each change.
    expect(saved.length).toBeGreaterThanOrEqual(5);
    expect(saved.at(-1)).toEqual(context.ledger.record());

    const state = renderSkillsState(context.ledger.entries(), {
      text: (hash) => context.ledger.text(hash),
      allSkills: 700,
      perSkill: 500,
    });
    // Most recently used first: alpha (brought back last), then gamma, then beta.
    expect(state.kept).toEqual(['alpha']);
    expect(state.demoted).toEqual(['gamma', 'beta']);
    context.ledger.setStates(state.states);

    // A restart: the last record, through JSON as the session log keeps it.
    const final = SkillLedger.restore(JSON.parse(JSON.stringify(context.ledger.record())));
    expect(final.record()).toEqual(context.ledger.record());
    expect(final.step).toBe(6);
    // Texts are not saved: the registry gives them back, for the same hash only.
    const again = world.runtime.activate('alpha', { triggeredBy: 'user', resend: true });
    expect(final.rememberText('alpha', again.contentHash as string, again.text)).toBe(true);
    expect(final.rememberText('alpha', 'f'.repeat(64), 'other text')).toBe(false);
    const after = renderSkillsState(final.entries(), {
      text: (hash) => final.text(hash),
      allSkills: 700,
      perSkill: 500,
    });
    expect(after.text).toBe(state.text);
    // The summaries came back with the ledger: none is made again.
    expect(final.summariesMade).toBe(0);
  });

  it('leaves out entries that do not read, and keeps the rest', () => {
    const restored = SkillLedger.restore({
      v: 1,
      step: 7,
      skills: [
        { name: 'broken' },
        {
          name: 'ok',
          address: 'ok@test',
          source: 'test',
          trusted: true,
          description: 'd',
          hash: 'a'.repeat(64),
          tokens: 10,
          activatedStep: 1,
          lastUsedStep: 2,
          state: 'demoted',
          summary: 's',
          summaryBy: 'body',
        },
      ],
    });
    expect(restored.step).toBe(7);
    expect(restored.entries().map((entry) => entry.name)).toEqual(['ok']);
    expect(SkillLedger.restore('nonsense').size).toBe(0);
  });

  it("answers a command-line agent's session start with the skills state, after its compaction or a resume", async () => {
    const world = skillsWorld({ alpha: 300, beta: 300 });
    const context = new ContextManager();
    const events: unknown[] = [];
    expect(context.sessionStart('compact')).toBeUndefined();
    context.ledger.nextStep();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'alpha' });
    context.ledger.nextStep();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'beta' });
    // Known from elsewhere (a ledger restored without its texts): a stub.
    const restored = SkillLedger.restore(JSON.parse(JSON.stringify(context.ledger.record())));
    const fresh = new ContextManager({ ledger: restored });
    const stubs = fresh.sessionStart('compact', (event) => events.push(event));
    expect(stubs).toContain('<skill_stub name="alpha" source="test">');
    expect(stubs).toContain('<skill_stub name="beta" source="test">');
    expect(stubs?.split('\n').at(-1)).toContain('beta (demoted), alpha (demoted)');
    expect(events).toHaveLength(2);
    expect(fresh.ledger.get('alpha')?.state).toBe('demoted');
    // With the texts: in full.
    const full = context.sessionStart('resume');
    expect(full).toContain('BODY-MARKER-alpha');
    expect(full).toContain('BODY-MARKER-beta');
    expect(context.sessionStart('startup')).toBeUndefined();
    expect(context.sessionStart('clear')).toBeUndefined();
  });

  it('lets a model write the skill summaries, once per content hash, as an option', async () => {
    const world = skillsWorld({ alpha: 300 });
    const asked: string[] = [];
    const context = new ContextManager({
      skillSummaries: 'model',
      summarizer: async (request) => {
        asked.push(request.system);
        return {
          text: request.prompt.includes('BODY-MARKER-alpha') ? 'Alpha, in brief.' : 'Summary.',
        };
      },
    });
    context.ledger.nextStep();
    await context.callTool(world.runtime, 'skillhost_activate', { name: 'alpha' });
    const messages = [
      { role: 'user' as const, content: 'Use alpha.' },
      { role: 'assistant' as const, content: 'Done.' },
      { role: 'user' as const, content: 'Next.' },
    ];
    const request = {
      trigger: 'manual' as const,
      system: 'S',
      tools: [],
      messages,
      model: 'm',
      summarize: async () => ({ text: 'unused' }),
    };
    await context.compact(request);
    await context.compact(request);
    expect(context.ledger.get('alpha')).toMatchObject({
      summary: 'Alpha, in brief.',
      summaryBy: 'model',
    });
    // One request for the skill (its hash), one conversation summary per compaction.
    expect(asked.filter((system) => system.startsWith('Summarise what this skill'))).toHaveLength(
      1,
    );
  });
});
