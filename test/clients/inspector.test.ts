import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/built.js';
import { inspector } from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { type ClientRun, runClient } from './harness/run.js';
import { BODY_MARKER, REFERENCE_MARKER } from './harness/skills.js';
import { outsideLoopback } from './harness/trace.js';

/**
 * The MCP Inspector CLI 2.12.0 (`inspector --cli`) against `skillhost mcp`, offline: it calls no
 * model, so each run is one request, checked on the Inspector's JSON output.
 */

const EXAMPLES = join(root, 'examples', 'skills');

function inspect(
  args: readonly string[],
  transport: 'stdio' | 'http' = 'stdio',
  skills?: string,
): Promise<ClientRun> {
  return runClient({
    ...inspector(['--format', 'json', ...args], transport),
    ...(skills === undefined ? {} : { skills }),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the Inspector's JSON output, dug into by the tests.
function output(run: ClientRun): any {
  expect(run.exit, run.transcript).toEqual({ code: 0, signal: null });
  return JSON.parse(run.stdout);
}

describe.each(['stdio', 'http'] as const)('the Inspector CLI over %s', (transport) => {
  const listed = once(() => inspect(['--method', 'tools/list', '--strict'], transport));

  it('lists the four tools, with no portability error in their schemas (--strict)', async () => {
    const run = await listed();
    expectCompletedOffline(run, 0);
    expect(output(run).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
    ]);
  });

  it('gets the skill body from skillhost_activate', async () => {
    const run = await inspect(
      [
        '--method',
        'tools/call',
        '--tool-name',
        'skillhost_activate',
        '--tool-arg',
        'name=tidy-notes',
      ],
      transport,
    );
    expectCompletedOffline(run, 0);
    const result = output(run).result;
    expect(result.isError).toBe(false);
    expect(result.content[0].text).toContain(BODY_MARKER);
  });

  it('reads a skill file as a resource', async () => {
    const run = await inspect(
      ['--method', 'resources/read', '--uri', 'skill://tidy-notes/references/style.md'],
      transport,
    );
    expectCompletedOffline(run, 0);
    expect(output(run).result.contents[0].text).toContain(REFERENCE_MARKER);
  });
});

describe('the Inspector CLI over stdio', () => {
  const verified = once(() => inspect(['--method', 'skills/list', '--verify'], 'stdio', EXAMPLES));
  const listed = once(() => inspect(['--method', 'tools/list']));

  it('verifies the skills extension over the examples (SEP-2640 checks) offline', async () => {
    const run = await verified();
    expect(outsideLoopback(run.trace)).toEqual([]);
    const reports = run.stdout
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{"uri"'))
      .map((line) => JSON.parse(line) as { name: string });
    expect(reports.map((report) => report.name).sort()).toEqual([
      'code-analysis',
      'csv-summary',
      'figures-report',
      'release-notes',
    ]);
  });

  // code-analysis has a folded `description: >`: the listing gives it as the served file
  // parses, with its final line break.
  it('passes --verify over the examples (exit 0, no failed skill)', async () => {
    const run = await verified();
    expect(run.stdout).not.toContain('"outcome":"failed"');
    expect(run.exit, run.transcript).toEqual({ code: 0, signal: null });
  });

  it('ends the server cleanly when it is done: exit status 0, the audit session closed', async () => {
    const run = await listed();
    expect(run.server, 'the server process in the trace').toBeDefined();
    expect(run.server?.end, JSON.stringify(run.server?.signals)).toEqual(
      expect.objectContaining({ code: 0 }),
    );
    expect(run.audit.at(-1)?.event).toBe('session-end');
    console.info(
      `Inspector: spawn to initialize answer ${run.initializeSeconds?.toFixed(3)} s; signals to the server: ${run.server?.signals.map((signal) => signal.name).join(', ') || 'none'}`,
    );
  });
});
