import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DriverRun, runDriver } from './harness/cli-agent.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { geminiFunctionResponse } from './harness/received.js';
import { BODY_MARKER, REFERENCE_MARKER } from './harness/skills.js';

/**
 * Gemini CLI 0.61.0 driven through ACP (`gemini --acp -m gemini-2.5-pro`) by skillhost's ACP
 * driver, against the scripted fake of Gemini's API, offline: our MCP server given in
 * `session/new`, its tools' permission questions answered by the policy, a shell command the
 * broker grants and one the policy denies.
 */

const GRANTED = 'GRANTED-MARKER-KITE-23';
const REFUSED = 'REFUSED-MARKER-WREN-31';

const run = once(() =>
  runDriver({
    provider: 'gemini',
    api: 'gemini',
    model: 'gemini-2.5-pro',
    system: 'AGENT-INSTRUCTIONS-MARKER: tidy the notes with your skills.',
    messages: ['Tidy my meeting notes in notes.txt.'],
    policy: {
      tools: ['bash', 'read', 'activate_skill', 'read_skill_resource', 'search_skills'],
      deny: ['Bash(rm:*)'],
    },
    answers: [
      { match: GRANTED, decision: 'once' },
      { match: REFUSED, decision: 'denied' },
    ],
    turns: [
      {
        toolCalls: [
          { id: 'call_1', name: 'mcp_skillhost_skillhost_activate', input: { name: 'tidy-notes' } },
        ],
      },
      {
        toolCalls: [
          {
            id: 'call_2',
            name: 'mcp_skillhost_skillhost_read',
            input: { name: 'tidy-notes', path: 'references/style.md' },
          },
        ],
      },
      // Commands Gemini CLI does not deem safe, so that it asks; and one the policy denies.
      {
        toolCalls: [
          { id: 'call_3', name: 'run_shell_command', input: { command: `touch ${GRANTED}` } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_4', name: 'run_shell_command', input: { command: `touch ${REFUSED}` } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_5', name: 'run_shell_command', input: { command: 'rm -rf notes.txt' } },
        ],
      },
      { text: 'Done.' },
    ],
    env: (modelUrl) => ({
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_API_KEY: 'dummy',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    }),
    // The user's own settings: no usage statistics (the suite allows no traffic off loopback).
    prepare: (scratch) => {
      mkdirSync(join(scratch.home, '.gemini'), { recursive: true });
      writeFileSync(
        join(scratch.home, '.gemini', 'settings.json'),
        JSON.stringify({ privacy: { usageStatisticsEnabled: false } }),
      );
    },
  }),
);

/** What the model was answered for one function call. */
function responseTo(
  result: DriverRun,
  id: string,
): { readonly output?: string; readonly error?: string } | undefined {
  for (const request of result.requests)
    for (const content of request.body.contents ?? [])
      for (const part of content.parts ?? [])
        if (part.functionResponse?.id === id) return part.functionResponse.response;
  return undefined;
}

describe('Gemini CLI driven through ACP', () => {
  it('runs the turn offline to its end', async () => {
    const result = await run();
    expectCompletedOffline(result, 6);
    expect(result.events[0], result.transcript).toMatchObject({
      type: 'start',
      provider: 'gemini',
      model: 'gemini-2.5-pro',
      agentVersion: '0.61.0',
    });
    expect(result.events.at(-1), result.transcript).toMatchObject({
      type: 'end',
      status: 'done',
      text: 'Done.',
    });
  });

  it('gives the model the instructions with the first prompt', async () => {
    const result = await run();
    expect(JSON.stringify(result.requests[0]?.body.contents)).toContain(
      'AGENT-INSTRUCTIONS-MARKER',
    );
  });

  it('activates the skill and reads its resource through skillhost mcp', async () => {
    const result = await run();
    expect(
      geminiFunctionResponse(result.requests, 'mcp_skillhost_skillhost_activate')?.text,
    ).toContain(BODY_MARKER);
    expect(geminiFunctionResponse(result.requests, 'mcp_skillhost_skillhost_read')?.text).toContain(
      REFERENCE_MARKER,
    );
    const events = result.audit.map((record) => record.event);
    expect(events).toContain('skill-activate');
    expect(events).toContain('resource-read');
  });

  it('asks the broker about each command it would ask about: runs the granted one, not the refused one', async () => {
    const result = await run();
    const requests = result.records.filter((record) => record.type === 'approval-request');
    expect(
      requests.map((request) => request.question?.input),
      result.transcript,
    ).toEqual([{ command: `touch ${GRANTED}` }, { command: `touch ${REFUSED}` }]);
    expect(responseTo(result, 'call_3')?.output, result.transcript).toBeDefined();
    expect(responseTo(result, 'call_4')?.error).toContain('canceled');
    const decisions = result.driverAudit
      .filter((record) => record.event === 'permission-decide')
      .map((record) => record.tool_or_script_calls?.[0]);
    expect(decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'bash', command: `touch ${GRANTED}`, decision: 'ask' }),
        expect.objectContaining({ tool: 'bash', command: `touch ${REFUSED}`, decision: 'ask' }),
      ]),
    );
  });

  it("denies what the policy denies through Gemini CLI's own admin policy, before it would run", async () => {
    const result = await run();
    expect(responseTo(result, 'call_5')?.error, result.transcript).toContain('denied by policy');
  });
});
