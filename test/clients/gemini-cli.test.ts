import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../helpers/model-servers.js';
import {
  ACTIVATE,
  type Call,
  geminiCli,
  geminiToolName,
  geminiTurns,
  READ,
  RUN,
  SEARCH,
} from './harness/clients.js';
import { expectCompletedOffline, once } from './harness/expect.js';
import { firstRequestText, geminiFunctionResponse, offeredTools } from './harness/received.js';
import { type ClientRun, type McpTool, runClient } from './harness/run.js';
import { BODY_MARKER, REFERENCE_MARKER, SCRIPT_MARKER, SKILL_NAMES } from './harness/skills.js';
import { defaultsAfterFirstSignal, outsideLoopback, type TracedProcess } from './harness/trace.js';

/**
 * Gemini CLI 0.61.0 (`gemini -p`) with `skillhost mcp` as its MCP server, against a fake of
 * Gemini's `streamGenerateContent`, offline. Its tools are allowed by a user policy rule.
 */

const ALL: readonly McpTool[] = [
  'skillhost_activate',
  'skillhost_read',
  'skillhost_run',
  'skillhost_search',
];

function converse(
  calls: readonly Call[],
  allow: readonly McpTool[],
  transport: 'stdio' | 'http' = 'stdio',
): Promise<ClientRun> {
  return runClient({
    api: 'gemini',
    turns: geminiTurns(calls),
    ...geminiCli({ allow, transport }),
  });
}

/** The response to the conversation's call of `tool`, as the model received it. */
function received(run: ClientRun, tool: McpTool): string {
  const response = geminiFunctionResponse(run.requests, geminiToolName(tool));
  expect(response, run.transcript).toBeDefined();
  return response?.text ?? '';
}

describe('Gemini CLI over stdio', () => {
  const interrupted = once(() =>
    runClient({
      api: 'gemini',
      // The model calls a tool, then never answers: Ctrl-C comes meanwhile.
      turns: [geminiTurns([READ])[0] as ScriptedTurn, { hang: true }],
      ...geminiCli({ allow: ['skillhost_read'] }),
      interrupt: { afterRequests: 2, signal: 'SIGINT' },
    }),
  );
  const activation = once(() => converse([ACTIVATE], ALL));
  const read = once(() => converse([READ], ['skillhost_read']));
  const scripted = once(() => converse([ACTIVATE, RUN], ALL));
  const search = once(() => converse([SEARCH], ['skillhost_search']));

  it('sends the model the catalog (the server instructions)', async () => {
    const run = await activation();
    expectCompletedOffline(run, 2);
    const first = firstRequestText(run.requests);
    expect(first).toContain('<available_skills>');
    for (const name of SKILL_NAMES) expect(first).toContain(`<name>${name}</name>`);
  });

  // Gemini CLI shows the server's instructions only in a trusted folder, and only once the
  // server answered in time: the activation tool's description carries the catalog too.
  it('sends the model the skills’ names and descriptions in skillhost_activate’s description', async () => {
    const run = await activation();
    const declarations = (run.requests[0]?.body.tools ?? []).flatMap(
      (tool: { functionDeclarations?: Array<{ name: string; description?: string }> }) =>
        tool.functionDeclarations ?? [],
    );
    const activate = declarations.find(
      (declaration: { name: string }) => declaration.name === geminiToolName('skillhost_activate'),
    );
    expect(activate?.description, run.transcript).toContain(
      '**tidy-notes**: Tidies raw meeting notes into short minutes.',
    );
    expect(activate?.description).toContain('**weather-report**: Writes a short weather report');
  });

  // The tools' names collide with none of Gemini CLI's own (its policy denies a tool named
  // activate_skill, its skills tool, in every headless run).
  it('offers the model every tool the policy allows', async () => {
    const run = await activation();
    expect(offeredTools(run.requests[0])).toEqual(expect.arrayContaining(ALL.map(geminiToolName)));
  });

  it('sends the model the skill body after skillhost_activate', async () => {
    expect(received(await activation(), 'skillhost_activate')).toContain(BODY_MARKER);
  });

  it('sends the model the file text after skillhost_read', async () => {
    const run = await read();
    expectCompletedOffline(run, 2);
    expect(received(run, 'skillhost_read')).toContain(REFERENCE_MARKER);
  });

  it('runs the script conversation offline', async () => {
    expectCompletedOffline(await scripted(), 3);
  });

  it("sends the model the script's output after skillhost_run", async () => {
    expect(received(await scripted(), 'skillhost_run')).toContain(
      `${SCRIPT_MARKER} counted notes.txt`,
    );
  });

  it('sends the model the matching skills after skillhost_search', async () => {
    const run = await search();
    expectCompletedOffline(run, 2);
    expect(received(run, 'skillhost_search')).toContain('tidy-notes');
  });

  it('keeps asking: without its policy rule a tool is withheld from the model', async () => {
    const run = await converse([READ], []);
    expectCompletedOffline(run, 2);
    expect(offeredTools(run.requests[0])).not.toContain(geminiToolName('skillhost_read'));
    expect(run.audit.map((record) => record.event)).not.toContain('resource-read');
  });

  it('ends the server cleanly when it is done: exit status 0, the audit session closed', async () => {
    const run = await read();
    expect(run.server, 'the server process in the trace').toBeDefined();
    expect(run.server?.end, JSON.stringify(run.server?.signals)).toEqual(
      expect.objectContaining({ code: 0 }),
    );
    expect(run.audit.at(-1)?.event).toBe('session-end');
    console.info(
      `Gemini CLI: spawn to initialize answer ${run.initializeSeconds?.toFixed(3)} s; signals to the server: ${run.server?.signals.map((signal) => signal.name).join(', ') || 'none'}`,
    );
  });

  it('passes a Ctrl-C (SIGINT to the process group) mid-turn on to the server', async () => {
    const run = await interrupted();
    expect(outsideLoopback(run.trace)).toEqual([]);
    expect(
      run.audit.map((record) => record.event),
      run.transcript,
    ).toContain('resource-read');
    expect(run.server?.signals.map((signal) => signal.name)).toContain('SIGINT');
    console.info(
      `Gemini CLI, Ctrl-C: signals to the server: ${run.server?.signals.map((signal) => `${signal.name} from ${signal.from}`).join(', ')}; end: ${JSON.stringify(run.server?.end)}`,
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

describe('Gemini CLI over HTTP', () => {
  const activation = once(() => converse([ACTIVATE, READ], ALL, 'http'));

  it('sends the model the skill body and the file text', async () => {
    const run = await activation();
    expectCompletedOffline(run, 3);
    expect(received(run, 'skillhost_activate')).toContain(BODY_MARKER);
    expect(received(run, 'skillhost_read')).toContain(REFERENCE_MARKER);
  });

  it('ends the server cleanly when it is stopped: exit 0, the audit session closed', async () => {
    const run = await activation();
    expect(run.httpServerExit).toEqual({ code: 0, signal: null });
    expect(run.audit.at(-1)?.event).toBe('session-end');
  });
});
