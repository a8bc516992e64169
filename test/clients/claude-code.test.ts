import { describe, expect, it } from 'vitest';
import {
  ACTIVATE,
  type Call,
  claudeCode,
  claudeToolName,
  claudeTurns,
  READ,
  RUN,
  SEARCH,
} from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { anthropicToolResult, firstRequestText } from './harness/received.js';
import { type ClientRun, type McpTool, runClient } from './harness/run.js';
import { BODY_MARKER, REFERENCE_MARKER, SCRIPT_MARKER, SKILL_NAMES } from './harness/skills.js';
import { defaultsAfterFirstSignal, outsideLoopback, type TracedProcess } from './harness/trace.js';

/**
 * Claude Code 2.1.332 (`claude -p`) with `skillhost mcp` as its MCP server, against a fake of the
 * Messages API (streamed), offline. Its tools are pre-approved one by one with --allowedTools.
 */

function converse(
  calls: readonly Call[],
  allow: readonly McpTool[],
  transport: 'stdio' | 'http' = 'stdio',
): Promise<ClientRun> {
  return runClient({
    api: 'anthropic',
    turns: claudeTurns(calls),
    ...claudeCode({ allow, transport }),
  });
}

/** The tool result of the conversation's `n`th call (1-based), as the model received it. */
function received(run: ClientRun, n: number): string {
  const result = anthropicToolResult(run.requests, `toolu_${n}`);
  expect(result, run.transcript).toBeDefined();
  return result?.text ?? '';
}

describe.each(['stdio', 'http'] as const)('Claude Code over %s', (transport) => {
  const activation = once(() => converse([ACTIVATE], ['skillhost_activate'], transport));
  const read = once(() => converse([READ], ['skillhost_read'], transport));

  it('sends the model the catalog (the server instructions) and offers the tools', async () => {
    const run = await activation();
    expectCompletedOffline(run, 3);
    const first = firstRequestText(run.requests);
    expect(first).toContain('<available_skills>');
    for (const name of SKILL_NAMES) expect(first).toContain(`<name>${name}</name>`);
    // Deferred: named in the ToolSearch listing, loaded by the model's first call.
    expect(first).toContain(claudeToolName('skillhost_activate'));
    expect(received(run, 1)).toContain('tidy-notes');
  });

  it('sends the model the skill body after skillhost_activate', async () => {
    const run = await activation();
    expect(received(run, 1)).toContain(BODY_MARKER);
  });

  it('runs the read conversation offline', async () => {
    expectCompletedOffline(await read(), 3);
  });

  it('sends the model the file text after skillhost_read', async () => {
    expect(received(await read(), 1)).toContain(REFERENCE_MARKER);
  });

  it('ends the server cleanly: exit 0, the audit session closed', async () => {
    const run = await read();
    if (transport === 'http') expect(run.httpServerExit).toEqual({ code: 0, signal: null });
    else expect(run.server?.end).toEqual(expect.objectContaining({ code: 0 }));
    expect(run.audit.at(-1)?.event).toBe('session-end');
  });
});

describe('Claude Code over stdio', () => {
  const interrupted = once(() =>
    runClient({
      api: 'anthropic',
      // The model loads and calls skillhost_activate, then never answers: Ctrl-C comes meanwhile.
      turns: [...claudeTurns([ACTIVATE]).slice(0, 2), { hang: true }],
      ...claudeCode({ allow: ['skillhost_activate'] }),
      interrupt: { afterRequests: 3, signal: 'SIGINT' },
    }),
  );
  const scripted = once(() => converse([ACTIVATE, RUN], ['skillhost_activate', 'skillhost_run']));
  const search = once(() => converse([SEARCH], ['skillhost_search']));

  it('runs the script conversation offline', async () => {
    const run = await scripted();
    expectCompletedOffline(run, 4);
    expect(run.audit.map((record) => record.event)).toContain('script-run');
  });

  it("sends the model the script's output after skillhost_run", async () => {
    expect(received(await scripted(), 2)).toContain(`${SCRIPT_MARKER} counted notes.txt`);
  });

  it('sends the model the matching skills after skillhost_search', async () => {
    const run = await search();
    expectCompletedOffline(run, 3);
    expect(received(run, 1)).toContain('tidy-notes');
  });

  it('keeps asking: a tool not named in --allowedTools is refused, not called', async () => {
    const run = await converse([ACTIVATE], []);
    expectCompletedOffline(run, 3);
    const result = anthropicToolResult(run.requests, 'toolu_1');
    expect(result?.isError, run.transcript).toBe(true);
    expect(result?.text).not.toContain('tidy-notes@');
    expect(run.audit.map((record) => record.event)).not.toContain('skill-activate');
  });

  it('ends the server cleanly when it is done: exit status 0, the audit session closed', async () => {
    const run = await scripted();
    expect(run.server, 'the server process in the trace').toBeDefined();
    expect(run.server?.end, JSON.stringify(run.server?.signals)).toEqual(
      expect.objectContaining({ code: 0 }),
    );
    expect(run.audit.at(-1)?.event).toBe('session-end');
    console.info(
      `Claude Code: spawn to initialize answer ${run.initializeSeconds?.toFixed(3)} s; signals to the server: ${run.server?.signals.map((signal) => signal.name).join(', ') || 'none'}`,
    );
  });

  it('passes a Ctrl-C (SIGINT to the process group) mid-turn on to the server', async () => {
    const run = await interrupted();
    expect(outsideLoopback(run.trace)).toEqual([]);
    expect(
      run.audit.map((record) => record.event),
      run.transcript,
    ).toContain('skill-activate');
    const signals = run.server?.signals.filter((signal) => signal.name === 'SIGINT') ?? [];
    expect(signals.length, JSON.stringify(run.server?.signals)).toBeGreaterThanOrEqual(1);
    console.info(
      `Claude Code, Ctrl-C: signals to the server: ${run.server?.signals.map((signal) => `${signal.name} from ${signal.from}`).join(', ')}; end: ${JSON.stringify(run.server?.end)}`,
    );
  });

  // Clients send more than one signal; each must find the handler, never the default action.
  it('keeps catching SIGINT and SIGTERM until it has exited', async () => {
    const run = await interrupted();
    expect(run.server).toBeDefined();
    expect(defaultsAfterFirstSignal(run.server as TracedProcess)).toEqual([]);
    expect(run.server?.end, JSON.stringify(run.server?.signals)).toEqual(
      expect.objectContaining({ code: 0 }),
    );
    expect(run.audit.at(-1)?.event).toBe('session-end');
  });
});
