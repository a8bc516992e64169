import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/internal.js';
import { bin, root } from '../helpers/built.js';
import { CLAUDE_OFFLINE } from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { anthropicToolResult } from './harness/received.js';
import { baseEnv, runClient } from './harness/run.js';

/**
 * The example agent `code-analyst` run end to end by `skillhost agent run --provider claude`:
 * the built bin starts Claude Code 2.1.332, which talks to the scripted fake of the Messages API,
 * offline, and reaches our tools through the MCP server inside skillhost's own process. It
 * activates a skill and reads its resource, runs a command the broker grants (--allow) and one
 * the policy denies (--deny).
 */

const GRANTED = 'GRANTED-MARKER-HERON-23';
const examples = join(root, 'examples');

const run = once(() =>
  runClient({
    api: 'anthropic',
    skills: join(examples, 'skills'),
    turns: [
      {
        toolCalls: [
          {
            id: 'toolu_1',
            name: 'mcp__skillhost__skillhost_activate',
            input: { name: 'csv-summary' },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'toolu_2',
            name: 'mcp__skillhost__skillhost_read',
            input: { name: 'csv-summary', path: 'assets/sample.csv' },
          },
        ],
      },
      { toolCalls: [{ id: 'toolu_3', name: 'Bash', input: { command: `echo ${GRANTED}` } }] },
      { toolCalls: [{ id: 'toolu_4', name: 'Bash', input: { command: 'rm -rf notes.txt' } }] },
      { text: 'Analysis done.' },
    ],
    launch: ({ clients, scratch, modelUrl }) => ({
      command: process.execPath,
      args: [
        bin,
        'agent',
        'run',
        'code-analyst',
        'Summarise assets/sample.csv of csv-summary, then check the workspace.',
        '--provider',
        'claude',
        '--no-default-sources',
        '--skills',
        scratch.skills,
        '--agents',
        join(examples, 'agents'),
        '--audit-log',
        scratch.auditLog,
        '--allow',
        'Bash(echo:*)',
        '--deny',
        'Bash(rm:*)',
        '--json',
      ],
      env: {
        ...baseEnv(scratch),
        PATH: `${dirname(clients.claude)}:${baseEnv(scratch).PATH}`,
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-fake',
        ...CLAUDE_OFFLINE,
      },
    }),
  }),
);

function events(stdout: string): LoopEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LoopEvent);
}

describe('skillhost agent run code-analyst --provider claude, end to end', () => {
  it('runs the task offline to its end, with exit 0', async () => {
    const result = await run();
    expectCompletedOffline(result, 5);
    expect(events(result.stdout).at(-1), result.transcript).toMatchObject({
      type: 'end',
      status: 'done',
      text: 'Analysis done.',
    });
  });

  it("gives Claude Code the agent's instructions and the manifest's model", async () => {
    const result = await run();
    const first = result.requests[0]?.body;
    expect(JSON.stringify(first?.system)).toContain('Code analyst');
    expect(JSON.stringify(first?.system)).toContain('csv-summary');
    expect(first?.model).toBe('claude-sonnet-4-5');
  });

  it('activates the skill and reads its resource through our MCP server', async () => {
    const result = await run();
    expect(anthropicToolResult(result.requests, 'toolu_1')?.text).toContain('# CSV summary');
    expect(anthropicToolResult(result.requests, 'toolu_2')?.text).toContain('Lisbon,Portugal');
    const trail = result.audit.map((record) => record.event);
    expect(trail).toEqual(expect.arrayContaining(['skill-activate', 'resource-read']));
    expect(events(result.stdout)).toContainEqual(
      expect.objectContaining({ type: 'skill-state', skill: 'csv-summary', state: 'full' }),
    );
  });

  it('runs the command the broker grants, and denies the one the policy denies, naming the rule', async () => {
    const result = await run();
    expect(anthropicToolResult(result.requests, 'toolu_3')).toMatchObject({
      isError: false,
      text: expect.stringContaining(GRANTED),
    });
    const denied = anthropicToolResult(result.requests, 'toolu_4');
    expect(denied?.isError, result.transcript).toBe(true);
    expect(denied?.text).toContain('Bash(rm:*)');
    expect(events(result.stdout)).toContainEqual(
      expect.objectContaining({ type: 'approval-decision', decision: 'once', by: 'flag' }),
    );
  });

  it('records the decisions and the run in the audit trail', async () => {
    const result = await run();
    const decisions = result.audit
      .filter((record) => record.event === 'permission-decide')
      .map((record) => record.tool_or_script_calls?.[0]);
    expect(decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'bash', command: `echo ${GRANTED}`, decision: 'ask' }),
        expect.objectContaining({ tool: 'bash', command: 'rm -rf notes.txt', decision: 'deny' }),
      ]),
    );
    const trail = result.audit.map((record) => record.event);
    expect(trail).toEqual(expect.arrayContaining(['agent-start', 'agent-end']));
  });
});
