import { describe, expect, it } from 'vitest';
import { runDriver } from './harness/cli-agent.js';
import { CLAUDE_OFFLINE } from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { anthropicToolResult } from './harness/received.js';
import { BODY_MARKER, REFERENCE_MARKER } from './harness/skills.js';

/**
 * Claude Code 2.1.332 driven by skillhost's claude driver (one long-lived `claude -p` over
 * stream-json), against the scripted fake of the Messages API, offline: it activates a skill and
 * reads its resource through `skillhost mcp`, runs a command the broker grants, and one the
 * policy denies.
 */

const GRANTED = 'GRANTED-MARKER-IBIS-17';

const run = once(() =>
  runDriver({
    provider: 'claude',
    api: 'anthropic',
    system: 'AGENT-INSTRUCTIONS-MARKER: tidy the notes with your skills.',
    messages: ['Tidy my meeting notes in notes.txt.'],
    policy: {
      tools: ['bash', 'read', 'activate_skill', 'read_skill_resource', 'search_skills'],
      deny: ['Bash(rm:*)'],
    },
    answers: [{ match: `echo ${GRANTED}`, decision: 'once' }],
    // With its tools chosen (--tools), Claude Code offers our tools directly, not through ToolSearch.
    turns: [
      {
        toolCalls: [
          {
            id: 'toolu_1',
            name: 'mcp__skillhost__skillhost_activate',
            input: { name: 'tidy-notes' },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'toolu_2',
            name: 'mcp__skillhost__skillhost_read',
            input: { name: 'tidy-notes', path: 'references/style.md' },
          },
        ],
      },
      { toolCalls: [{ id: 'toolu_3', name: 'Bash', input: { command: `echo ${GRANTED}` } }] },
      { toolCalls: [{ id: 'toolu_4', name: 'Bash', input: { command: 'rm -rf notes.txt' } }] },
      { text: 'Done.' },
    ],
    env: (modelUrl) => ({
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake',
      ...CLAUDE_OFFLINE,
    }),
  }),
);

describe('Claude Code driven by the claude driver', () => {
  it('runs the turn offline to its end', async () => {
    const result = await run();
    expectCompletedOffline(result, 5);
    expect(result.records[0], result.transcript).toMatchObject({
      type: 'probe',
      version: '2.1.332',
    });
    expect(result.events[0]).toMatchObject({ type: 'start', provider: 'claude' });
    expect(result.events.at(-1), result.transcript).toMatchObject({
      type: 'end',
      status: 'done',
      text: 'Done.',
    });
    expect(result.records.at(-1)).toMatchObject({ type: 'exit', code: 0 });
  });

  it('gives the model the instructions from the private file, and no model flag', async () => {
    const result = await run();
    const system = JSON.stringify(result.requests[0]?.body.system);
    expect(system).toContain('AGENT-INSTRUCTIONS-MARKER');
    // The CLI's own default model, as it reported it.
    expect(result.events[0]).toMatchObject({ model: result.requests[0]?.body.model });
  });

  it('activates the skill and reads its resource through skillhost mcp', async () => {
    const result = await run();
    expect(anthropicToolResult(result.requests, 'toolu_1')?.text).toContain(BODY_MARKER);
    expect(anthropicToolResult(result.requests, 'toolu_2')?.text).toContain(REFERENCE_MARKER);
    const events = result.audit.map((record) => record.event);
    expect(events).toContain('skill-activate');
    expect(events).toContain('resource-read');
  });

  it('asks the broker about the command the policy would ask about, and runs it once granted', async () => {
    const result = await run();
    const requests = result.records.filter((record) => record.type === 'approval-request');
    expect(requests, result.transcript).toHaveLength(1);
    expect(requests[0]?.question).toMatchObject({
      kind: 'tool',
      tool: 'bash',
      input: { command: `echo ${GRANTED}` },
    });
    expect(anthropicToolResult(result.requests, 'toolu_3')).toMatchObject({
      isError: false,
      text: expect.stringContaining(GRANTED),
    });
  });

  it('denies the command the policy denies, naming the rule to the model', async () => {
    const result = await run();
    const denied = anthropicToolResult(result.requests, 'toolu_4');
    expect(denied?.isError, result.transcript).toBe(true);
    expect(denied?.text).toContain('Bash(rm:*)');
  });

  it('records every decision in the audit trail, the calls Claude Code would not ask about included', async () => {
    const result = await run();
    const decisions = result.driverAudit
      .filter((record) => record.event === 'permission-decide')
      .map((record) => record.tool_or_script_calls?.[0]);
    expect(decisions).toEqual(
      expect.arrayContaining([
        // Our own tools: the policy's word is recorded; the runtime decides each call itself.
        expect.objectContaining({ tool: 'activate_skill' }),
        expect.objectContaining({ tool: 'read_skill_resource' }),
        expect.objectContaining({ tool: 'bash', command: `echo ${GRANTED}`, decision: 'ask' }),
        expect.objectContaining({ tool: 'bash', command: 'rm -rf notes.txt', decision: 'deny' }),
      ]),
    );
  });
});

describe('Claude Code driven by the claude driver, across turns', () => {
  const compacted = once(() =>
    runDriver({
      provider: 'claude',
      api: 'anthropic',
      system: 'AGENT-INSTRUCTIONS-MARKER',
      messages: ['First task.', '/compact', 'Next task.'],
      policy: { tools: ['activate_skill', 'read_skill_resource', 'search_skills'] },
      answers: [],
      turns: [
        { text: 'First.' },
        { text: '<analysis>Short.</analysis>\n<summary>SUMMARY of the session.</summary>' },
        { text: 'After.' },
      ],
      env: (modelUrl) => ({
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-fake',
        ...CLAUDE_OFFLINE,
      }),
    }),
  );

  it('keeps one process for every message, and reports the compaction boundary', async () => {
    const result = await compacted();
    expectCompletedOffline(result, 3);
    const ends = result.events.filter((event) => event.type === 'end');
    expect(
      ends.map((end) => end.type === 'end' && end.status),
      result.transcript,
    ).toEqual(['done', 'done', 'done']);
    expect(result.events.filter((event) => event.type === 'start')).toHaveLength(1);
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'compaction', trigger: 'agent', agentTrigger: 'manual' }),
    );
  });

  it('gives the model the skills-state through the SessionStart hook after compacting', async () => {
    const result = await compacted();
    const after = JSON.stringify(result.requests.at(-1)?.body.messages);
    expect(after).toContain('SKILLS-STATE-MARKER');
    expect(JSON.stringify(result.requests[0]?.body)).not.toContain('SKILLS-STATE-MARKER');
  });

  it('says how to log in when Claude Code has no credentials', async () => {
    const result = await runDriver({
      provider: 'claude',
      api: 'anthropic',
      system: 'x',
      messages: ['Hello.'],
      policy: { tools: ['activate_skill'] },
      answers: [],
      turns: [],
      env: (modelUrl) => ({ ANTHROPIC_BASE_URL: modelUrl, ...CLAUDE_OFFLINE }),
    });
    expect(result.requests).toHaveLength(0);
    expect(result.events.at(-1), result.transcript).toMatchObject({
      type: 'end',
      status: 'failed',
      code: 'CLI_AGENT_LOGIN_REQUIRED',
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'error', hint: expect.stringContaining('/login') }),
    );
  });
});
