import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../helpers/model-servers.js';
import {
  ACTIVATE,
  type Call,
  CODEX_NAMESPACE,
  codex,
  codexTurns,
  READ,
  RUN,
  SEARCH,
} from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { offeredTools, responsesToolOutput } from './harness/received.js';
import { type ClientRun, type McpTool, runClient } from './harness/run.js';
import {
  BODY_MARKER,
  REFERENCE_MARKER,
  SCRIPT_MARKER,
  SKILL_NAMES,
  UNAPPROVED_MARKER,
} from './harness/skills.js';
import { defaultsAfterFirstSignal, outsideLoopback, type TracedProcess } from './harness/trace.js';

/**
 * Codex CLI 0.171.0 (`codex exec`) with `skillhost mcp` as its MCP server, against a fake of the
 * Responses API (streamed), offline. Its tools are pre-approved one by one with
 * `approval_mode = "approve"`.
 */

const ACTIVATE_WEATHER: Call = { tool: 'skillhost_activate', input: { name: 'weather-report' } };
const RUN_WEATHER: Call = {
  tool: 'skillhost_run',
  input: { name: 'weather-report', script: 'scripts/fetch.sh' },
};

function converse(calls: readonly Call[], allow: readonly McpTool[]): Promise<ClientRun> {
  return runClient({ api: 'responses', turns: codexTurns(calls), ...codex({ allow }) });
}

/** The output of the conversation's `n`th call (1-based), as the model received it. */
function received(run: ClientRun, n: number): string {
  const output = responsesToolOutput(run.requests, `call_${n}`);
  expect(output, run.transcript).toBeDefined();
  return output?.text ?? '';
}

describe('Codex over stdio', () => {
  const interrupted = once(() =>
    runClient({
      api: 'responses',
      // The model calls a tool, then never answers: Ctrl-C comes meanwhile.
      turns: [codexTurns([ACTIVATE])[0] as ScriptedTurn, { hang: true }],
      ...codex({ allow: ['skillhost_activate'] }),
      interrupt: { afterRequests: 2, signal: 'SIGINT' },
    }),
  );
  const activation = once(() => converse([ACTIVATE], ['skillhost_activate']));
  const read = once(() => converse([READ], ['skillhost_read']));
  const scripted = once(() => converse([ACTIVATE, RUN], ['skillhost_activate', 'skillhost_run']));
  const search = once(() => converse([SEARCH], ['skillhost_search']));
  const defaults = once(() => converse([ACTIVATE], []));

  it('sends the model the catalog (the namespace description) and the tools', async () => {
    const run = await activation();
    expectCompletedOffline(run, 2);
    const namespace = (run.requests[0]?.body.tools ?? []).find(
      (tool: { name?: string }) => tool.name === CODEX_NAMESPACE,
    );
    expect(namespace?.description).toContain('<available_skills>');
    for (const name of SKILL_NAMES)
      expect(namespace?.description).toContain(`<name>${name}</name>`);
    expect(offeredTools(run.requests[0])).toEqual(
      expect.arrayContaining([
        `${CODEX_NAMESPACE}/skillhost_activate`,
        `${CODEX_NAMESPACE}/skillhost_read`,
        `${CODEX_NAMESPACE}/skillhost_run`,
        `${CODEX_NAMESPACE}/skillhost_search`,
      ]),
    );
    expect(run.audit.map((record) => record.event)).toContain('skill-activate');
  });

  it('sends the model the skill body after skillhost_activate', async () => {
    expect(received(await activation(), 1)).toContain(BODY_MARKER);
  });

  it('runs the read conversation offline', async () => {
    const run = await read();
    expectCompletedOffline(run, 2);
    expect(run.audit.map((record) => record.event)).toContain('resource-read');
  });

  it('sends the model the file text after skillhost_read', async () => {
    expect(received(await read(), 1)).toContain(REFERENCE_MARKER);
  });

  it('runs the script conversation offline', async () => {
    const run = await scripted();
    expectCompletedOffline(run, 3);
    expect(run.audit.map((record) => record.event)).toContain('script-run');
  });

  it("sends the model the script's output after skillhost_run", async () => {
    expect(received(await scripted(), 2)).toContain(`${SCRIPT_MARKER} counted notes.txt`);
  });

  it('sends the model the matching skills after skillhost_search', async () => {
    const run = await search();
    expectCompletedOffline(run, 2);
    expect(received(run, 1)).toContain('tidy-notes');
  });

  it('runs the conversation offline with Codex’s default approvals', async () => {
    expectCompletedOffline(await defaults(), 2);
  });

  // The tools are annotated: Codex calls the read-only ones (readOnlyHint) without asking.
  it('calls a read-only tool with its default approvals', async () => {
    const run = await defaults();
    expect(run.audit.map((record) => record.event)).toContain('skill-activate');
    expect(received(run, 1)).toContain(BODY_MARKER);
  });

  // The script run is annotated as it is under `skillhost mcp`: not read-only, but neither
  // destructive nor open-world (the sandbox has no network and none of the user's files), so
  // Codex calls it without asking; skillhost's own policy is what decides whether it runs.
  it('runs a script its skill pre-approves with Codex’s default approvals', async () => {
    const run = await converse([ACTIVATE, RUN], []);
    expectCompletedOffline(run, 3);
    expect(received(run, 2)).toContain(`${SCRIPT_MARKER} counted notes.txt`);
  });

  it('keeps asking: a script nothing pre-approves is refused by skillhost’s policy', async () => {
    const run = await converse([ACTIVATE_WEATHER, RUN_WEATHER], []);
    expectCompletedOffline(run, 3);
    expect(received(run, 2)).toContain('PERMISSION_REQUIRED');
    expect(received(run, 2)).not.toContain(UNAPPROVED_MARKER);
  });

  // Codex 0.171 ends its MCP servers with kill(-pgid, SIGTERM) and, a few milliseconds later,
  // kill(pid, SIGKILL): the server's exit status is SIGKILL whatever it does. What it owes is an
  // audit log with no torn record when that happens.
  it('stops the server with SIGTERM then SIGKILL; the audit log stays whole', async () => {
    const run = await scripted();
    expect(run.server, 'the server process in the trace').toBeDefined();
    expect(run.server?.signals.map((signal) => signal.name)).toContain('SIGTERM');
    expect(run.server?.end).toBeDefined();
    expect(run.auditProblems).toEqual([]);
    expect(run.audit.map((record) => record.event)).toContain('script-run');
    console.info(
      `Codex: spawn to initialize answer ${run.initializeSeconds?.toFixed(3)} s; signals to the server: ${run.server?.signals.map((signal) => signal.name).join(', ') || 'none'}; end: ${JSON.stringify(run.server?.end)}; last audit record: ${run.audit.at(-1)?.event}`,
    );
  });

  // Codex starts its MCP servers in their own process group: a Ctrl-C stays with Codex, which
  // then stops the server as it always does (SIGTERM, then SIGKILL).
  it('keeps a Ctrl-C (SIGINT to its process group) from the server, then stops it', async () => {
    const run = await interrupted();
    expect(outsideLoopback(run.trace)).toEqual([]);
    expect(
      run.audit.map((record) => record.event),
      run.transcript,
    ).toContain('skill-activate');
    const signals = run.server?.signals.map((signal) => signal.name) ?? [];
    expect(signals).not.toContain('SIGINT');
    expect(signals).toContain('SIGTERM');
    expect(run.server?.end).toBeDefined();
    expect(run.auditProblems).toEqual([]);
    console.info(
      `Codex, Ctrl-C: signals to the server: ${run.server?.signals.map((signal) => `${signal.name} from ${signal.from}`).join(', ')}; end: ${JSON.stringify(run.server?.end)}`,
    );
  });

  // Clients send more than one signal; each must find the handler, never the default action.
  it('keeps catching SIGINT and SIGTERM until it has exited', async () => {
    const run = await scripted();
    expect(run.server).toBeDefined();
    expect(defaultsAfterFirstSignal(run.server as TracedProcess)).toEqual([]);
  });
});

describe('Codex over HTTP', () => {
  const activation = once(() =>
    runClient({
      api: 'responses',
      turns: codexTurns([ACTIVATE, READ]),
      ...codex({ allow: ['skillhost_activate', 'skillhost_read'], transport: 'http' }),
    }),
  );

  it('sends the model the skill body and the file text', async () => {
    const run = await activation();
    expectCompletedOffline(run, 3);
    expect(received(run, 1)).toContain(BODY_MARKER);
    expect(received(run, 2)).toContain(REFERENCE_MARKER);
  });

  it('serves it from a session of its own, ended when the server stops (exit 0)', async () => {
    const run = await activation();
    const activated = run.audit.find((record) => record.event === 'skill-activate');
    const starts = run.audit.filter((record) => record.event === 'session-start');
    expect(starts.map((record) => record.session_id)).toContain(activated?.session_id);
    expect(activated?.session_id).not.toBe(starts[0]?.session_id);
    expect(run.httpServerExit).toEqual({ code: 0, signal: null });
    expect(run.audit.at(-1)?.event).toBe('session-end');
  });
});
