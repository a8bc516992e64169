import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../src/adapters/mcp/index.js';
import { parseAuditLog } from '../../../src/audit/reader.js';
import { MemoryAuditSink } from '../../../src/audit/trail.js';
import { nodeRuntimeDeps } from '../../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { createSkillRuntime } from '../../../src/runtime/create.js';
import type { SkillRuntime } from '../../../src/runtime/types.js';
import { createFakeClock } from '../../../src/testing/index.js';
import { shellRunner } from '../../helpers/shell.js';
import { metaOf, Scratch, type SkillTree, skillTree, textOf } from './fixture.js';

/**
 * Two SDK clients of one `serveHttp`: each 2025-protocol session (`Mcp-Session-Id`) is served
 * from a runtime session of its own, whose grants end by the MCP rules.
 */
describe('serveHttp: a runtime session per MCP session', () => {
  const scratch = new Scratch();
  const sink = new MemoryAuditSink();
  const clock = createFakeClock();
  let tree: SkillTree;
  let runtime: SkillRuntime;
  let serving: Awaited<ReturnType<typeof serveHttp>>;
  let first: Client;
  let second: Client;

  const connect = async () => {
    const client = new Client({ name: 'skillhost-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    return client;
  };
  const call = (client: Client, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const greet = (client: Client) =>
    call(client, 'skillhost_run', { name: 'hello', script: 'scripts/greet.sh', args: ['Ada'] });
  const sessionsOf = (event: string) =>
    parseAuditLog(sink.text)
      .records.filter((record) => record.event === event)
      .map((record) => record.session_id);

  beforeAll(async () => {
    tree = skillTree(scratch);
    runtime = createSkillRuntime({
      sources: [
        { id: 'test', kind: 'explicit', root: tree.skills, trust: 'trusted', enabled: true },
      ],
      policy: { tools: [...CANONICAL_TOOLS] },
      audit: { sink, sessionId: 'server' },
      deps: { ...nodeRuntimeDeps({ runner: shellRunner() }), now: clock.now },
    });
    serving = await serveHttp(runtime, { port: 0, grantsIdleMs: 60_000 });
    first = await connect();
    second = await connect();
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await serving?.close();
    await runtime?.close();
    scratch.removeAll();
  });

  it('opens one runtime session per client, each with its own audit session id', () => {
    expect(serving.sessions).toBe(2);
    const starts = parseAuditLog(sink.text).records.filter(
      (record) => record.event === 'session-start',
    );
    // The server's own, the one 2026 clients share, and one per 2025 client.
    expect(starts).toHaveLength(4);
    expect(new Set(starts.map((record) => record.session_id)).size).toBe(4);
    for (const start of starts.slice(1))
      expect(start.details).toMatchObject({ parent_session: 'server' });
  });

  it("keeps one client's activation and its pre-approvals from the other", async () => {
    const activation = await call(first, 'skillhost_activate', { name: 'hello' });
    expect(textOf(activation)).toContain('<skill_content name="hello"');
    expect(metaOf(await greet(first))).toMatchObject({ approvedBy: 'policy' });
    // The second client never activated hello: the script is not even runnable for it.
    const refused = await greet(second);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('SKILL_NOT_ACTIVE');
    // Its own activation is a first one (a body, not "already active").
    const own = await call(second, 'skillhost_activate', { name: 'hello' });
    expect(textOf(own)).toContain('<skill_content name="hello"');
    const activations = parseAuditLog(sink.text).records.filter(
      (record) => record.event === 'skill-activate' && !record.error,
    );
    expect(new Set(activations.map((record) => record.session_id)).size).toBe(2);
  });

  it('ends a skill’s pre-approvals when the client activates another skill', async () => {
    expect(metaOf(await greet(first))).toMatchObject({ approvedBy: 'policy' });
    await call(first, 'skillhost_activate', { name: 'notes' });
    const after = await greet(first);
    expect(after.isError).toBe(true);
    expect(textOf(after)).toContain('PERMISSION_REQUIRED');
    // The other client's grants are untouched.
    expect(metaOf(await greet(second))).toMatchObject({ approvedBy: 'policy' });
  });

  it('ends them after the idle time', async () => {
    await call(first, 'skillhost_activate', { name: 'hello' });
    expect(metaOf(await greet(first))).toMatchObject({ approvedBy: 'policy' });
    clock.advance(60_001);
    const idle = await greet(first);
    expect(idle.isError).toBe(true);
    expect(textOf(idle)).toContain('PERMISSION_REQUIRED');
  });

  it('ends the runtime session with the MCP session (DELETE), and refuses its id after', async () => {
    const third = await connect();
    expect(serving.sessions).toBe(3);
    await call(third, 'skillhost_activate', { name: 'hello' });
    const transport = third.transport as StreamableHTTPClientTransport;
    const id = transport.sessionId;
    expect(id).toBeDefined();
    await transport.terminateSession();
    await third.close();
    expect(serving.sessions).toBe(2);
    const ends = sessionsOf('session-end');
    const activated = parseAuditLog(sink.text).records.findLast(
      (record) => record.event === 'skill-activate',
    );
    expect(ends).toContain(activated?.session_id);
    const response = await fetch(serving.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  it('refuses a request with no session that is not an initialize', async () => {
    const response = await fetch(serving.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect(serving.sessions).toBe(2);
  });

  it('ends the oldest session past the most it keeps', async () => {
    const small = await serveHttp(runtime, { port: 0, maxSessions: 1 });
    try {
      const url = new URL(small.url);
      const a = new Client({ name: 'a', version: '1.0.0' });
      await a.connect(new StreamableHTTPClientTransport(url));
      const b = new Client({ name: 'b', version: '1.0.0' });
      await b.connect(new StreamableHTTPClientTransport(url));
      expect(small.sessions).toBe(1);
      await expect(b.listTools()).resolves.toBeDefined();
      await expect(a.listTools()).rejects.toThrow();
      await b.close();
      await a.close().catch(() => {});
    } finally {
      await small.close();
    }
  });
});
