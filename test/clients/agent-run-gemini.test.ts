import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/internal.js';
import { bin, root } from '../helpers/built.js';
import type { RecordedRequest } from '../helpers/model-servers.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { geminiFunctionResponse } from './harness/received.js';
import { baseEnv, runClient } from './harness/run.js';

/**
 * The example agent `code-analyst` run end to end by `skillhost agent run --provider gemini`:
 * the built bin starts Gemini CLI 0.61.0 in its ACP mode against the scripted fake of Gemini's
 * API, offline; our tools come from the MCP server inside skillhost's process (given in
 * `session/new`). A skill activated and its resource read, a command granted by --allow, one
 * denied by the policy.
 */

const GRANTED = 'GRANTED-MARKER-PLOVER-41';
const examples = join(root, 'examples');

const run = once(() =>
  runClient({
    api: 'gemini',
    skills: join(examples, 'skills'),
    turns: [
      {
        toolCalls: [
          {
            id: 'call_1',
            name: 'mcp_skillhost_skillhost_activate',
            input: { name: 'csv-summary' },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'call_2',
            name: 'mcp_skillhost_skillhost_read',
            input: { name: 'csv-summary', path: 'assets/sample.csv' },
          },
        ],
      },
      {
        toolCalls: [
          { id: 'call_3', name: 'run_shell_command', input: { command: `touch ${GRANTED}` } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_4', name: 'run_shell_command', input: { command: 'rm -rf notes.txt' } },
        ],
      },
      { text: 'Analysis done.' },
    ],
    launch: ({ clients, scratch, modelUrl }) => {
      // `gemini` on PATH, as a user has it: the pinned Gemini CLI on the suite's node.
      const tools = join(scratch.home, 'bin');
      mkdirSync(tools, { recursive: true });
      writeFileSync(
        join(tools, 'gemini'),
        `#!/bin/sh\nexec ${JSON.stringify(clients.node)} ${JSON.stringify(clients.gemini)} "$@"\n`,
      );
      chmodSync(join(tools, 'gemini'), 0o755);
      mkdirSync(join(scratch.home, '.gemini'), { recursive: true });
      writeFileSync(
        join(scratch.home, '.gemini', 'settings.json'),
        JSON.stringify({ privacy: { usageStatisticsEnabled: false } }),
      );
      return {
        command: process.execPath,
        args: [
          bin,
          'agent',
          'run',
          'code-analyst',
          'Summarise assets/sample.csv of csv-summary, then check the workspace.',
          '--provider',
          'gemini',
          '--model',
          'gemini-2.5-pro',
          '--no-default-sources',
          '--skills',
          scratch.skills,
          '--agents',
          join(examples, 'agents'),
          '--audit-log',
          scratch.auditLog,
          '--workspace-writable',
          '--allow',
          'Bash(touch:*)',
          '--deny',
          'Bash(rm:*)',
          '--json',
        ],
        env: {
          ...baseEnv(scratch),
          PATH: `${tools}:${baseEnv(scratch).PATH}`,
          GOOGLE_GEMINI_BASE_URL: modelUrl,
          GEMINI_API_KEY: 'dummy',
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
        },
      };
    },
  }),
);

/** What the model was answered for one function call. */
function responseTo(
  requests: readonly RecordedRequest[],
  id: string,
): { readonly output?: string; readonly error?: string } | undefined {
  for (const request of requests)
    for (const content of request.body.contents ?? [])
      for (const part of content.parts ?? [])
        if (part.functionResponse?.id === id) return part.functionResponse.response;
  return undefined;
}

function events(stdout: string): LoopEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LoopEvent);
}

describe('skillhost agent run code-analyst --provider gemini, end to end', () => {
  it('runs the task offline to its end, with exit 0', async () => {
    const result = await run();
    expectCompletedOffline(result, 5);
    expect(events(result.stdout)[0], result.transcript).toMatchObject({
      type: 'start',
      provider: 'gemini',
      model: 'gemini-2.5-pro',
    });
    expect(events(result.stdout).at(-1), result.transcript).toMatchObject({
      type: 'end',
      status: 'done',
      text: 'Analysis done.',
    });
  });

  it('gives the model the instructions with the first prompt', async () => {
    const result = await run();
    expect(JSON.stringify(result.requests[0]?.body.contents)).toContain('Code analyst');
  });

  it('activates the skill and reads its resource through our MCP server', async () => {
    const result = await run();
    expect(
      geminiFunctionResponse(result.requests, 'mcp_skillhost_skillhost_activate')?.text,
      result.transcript,
    ).toContain('# CSV summary');
    expect(geminiFunctionResponse(result.requests, 'mcp_skillhost_skillhost_read')?.text).toContain(
      'Lisbon,Portugal',
    );
    const trail = result.audit.map((record) => record.event);
    expect(trail).toEqual(expect.arrayContaining(['skill-activate', 'resource-read']));
  });

  it('runs the command --allow grants, and not the one the policy denies', async () => {
    const result = await run();
    const trail = result.audit
      .filter((record) => record.event === 'permission-decide')
      .map((record) => record.tool_or_script_calls?.[0]);
    expect(trail, result.transcript).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'bash', command: `touch ${GRANTED}`, decision: 'ask' }),
      ]),
    );
    expect(events(result.stdout)).toContainEqual(
      expect.objectContaining({ type: 'approval-decision', decision: 'once', by: 'flag' }),
    );
    expect(responseTo(result.requests, 'call_3')?.output, result.transcript).toBeDefined();
    expect(responseTo(result.requests, 'call_4')?.error).toContain('denied by policy');
  });
});
