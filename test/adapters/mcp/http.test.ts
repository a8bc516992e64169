import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../src/adapters/mcp/index.js';
import { parseAuditLog, verifyAuditLog } from '../../../src/audit/reader.js';
import { MemoryAuditSink } from '../../../src/audit/trail.js';
import { sha256 } from '../../../src/node/hash.js';
import { nodeRuntimeDeps } from '../../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { createSkillRuntime } from '../../../src/runtime/create.js';
import type { SkillRuntime } from '../../../src/runtime/types.js';
import { shellRunner } from '../../helpers/shell.js';
import {
  addSkill,
  ESCAPES,
  expectBadCallsRefused,
  LOGO,
  mcpToolsOf,
  metaOf,
  OUTSIDE_SECRET,
  rejection,
  Scratch,
  type SkillTree,
  skillTree,
  textOf,
} from './fixture.js';

/** A raw request, to send what a well-behaved client would not (a foreign Host header). */
function rawStatus(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

describe('serveHttp: Streamable HTTP on loopback (in process, the SDK client)', () => {
  const scratch = new Scratch();
  const sink = new MemoryAuditSink();
  const errors: Error[] = [];
  let tree: SkillTree;
  let runtime: SkillRuntime;
  let serving: Awaited<ReturnType<typeof serveHttp>>;
  let client: Client;

  beforeAll(async () => {
    tree = skillTree(scratch);
    runtime = createSkillRuntime({
      sources: [
        { id: 'test', kind: 'explicit', root: tree.skills, trust: 'trusted', enabled: true },
      ],
      policy: { tools: [...CANONICAL_TOOLS] },
      audit: { sink, sessionId: 'http-test' },
      deps: nodeRuntimeDeps({ runner: shellRunner() }),
    });
    serving = await serveHttp(runtime, {
      port: 0,
      watch: true,
      version: '9.9.9',
      onError: (error) => errors.push(error),
    });
    client = new Client({ name: 'skillhost-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  });

  afterAll(async () => {
    await client?.close();
    await serving?.close();
    await runtime?.close();
    scratch.removeAll();
  });

  it('listens on loopback, on the port it reports', () => {
    expect(serving.host).toBe('127.0.0.1');
    expect(serving.port).toBeGreaterThan(0);
    expect(serving.url).toBe(`http://127.0.0.1:${serving.port}/mcp`);
  });

  it('initializes with the catalog in the instructions', () => {
    expect(client.getServerVersion()).toEqual({ name: 'skillhost', version: '9.9.9' });
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('<available_skills>');
    expect(instructions).toContain('<name>hello</name>');
  });

  it('lists exactly the runtime tools', async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual(mcpToolsOf(runtime));
    const readOnly = Object.fromEntries(
      tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]),
    );
    expect(readOnly).toEqual({
      skillhost_activate: true,
      skillhost_read: true,
      skillhost_run: false,
      skillhost_search: true,
    });
  });

  it('activates, reads and runs a pre-approved script through the runtime', async () => {
    const activation = await client.callTool({
      name: 'skillhost_activate',
      arguments: { name: 'hello' },
    });
    expect(textOf(activation)).toContain('<skill_content name="hello"');
    const read = await client.callTool({
      name: 'skillhost_read',
      arguments: { name: 'hello', path: 'assets/logo.png' },
    });
    expect(metaOf(read)).toMatchObject({
      mediaType: 'image/png',
      base64: Buffer.from(LOGO).toString('base64'),
    });
    const run = await client.callTool({
      name: 'skillhost_run',
      arguments: { name: 'hello', script: 'scripts/greet.sh', args: ['Grace'] },
    });
    expect(textOf(run)).toContain('hello Grace');
    expect(metaOf(run)).toMatchObject({ sandbox: 'bubblewrap', approvedBy: 'policy' });
  });

  it('answers bad calls with coded error results and keeps serving', async () => {
    await expectBadCallsRefused(client);
  });

  it('reads resources within bounds and refuses escapes', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(
      'skill://hello/references/guide.md',
    );
    const guide = await client.readResource({ uri: 'skill://hello/references/guide.md' });
    expect(JSON.stringify(guide.contents)).toContain('Be kind.');
    for (const uri of ESCAPES) {
      const error = await rejection(client.readResource({ uri }));
      expect(error.message, uri).not.toContain(OUTSIDE_SECRET);
    }
    const refusals = parseAuditLog(sink.text).records.filter(
      (record) =>
        record.event === 'resource-read' && record.error?.code === 'RESOURCE_PATH_INVALID',
    );
    expect(refusals.map((record) => record.loaded_files[0])).toEqual(
      expect.arrayContaining(ESCAPES),
    );
  });

  it('serves prompts and the skills extension', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['guarded', 'hello', 'notes']);
    const prompt = await client.getPrompt({ name: 'notes' });
    expect(JSON.stringify(prompt.messages)).toContain('<skill_content name=\\"notes\\"');
    const skills = new SkillsClient(client);
    const { skills: listed } = await skills.list();
    expect(listed).toHaveLength(3);
    const manifest = await skills.read(listed.find((skill) => skill.uri.includes('hello'))!);
    expect(manifest.body).toContain('Run scripts/greet.sh');
  });

  it('refuses a foreign Host header (DNS rebinding) and answers only at /mcp', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    expect(
      await rawStatus(serving.port, '/mcp', { ...headers, host: `evil.example:${serving.port}` }),
    ).toBe(403);
    expect(
      await rawStatus(serving.port, '/mcp', { ...headers, origin: 'https://evil.example' }),
    ).toBe(403);
    // Any local web page is a foreign origin too, unless allowed.
    for (const origin of [
      `http://localhost:${serving.port}`,
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'null',
      'not a url',
    ]) {
      expect(await rawStatus(serving.port, '/mcp', { ...headers, origin }), origin).toBe(403);
    }
    expect(await rawStatus(serving.port, '/elsewhere', headers)).toBe(404);
  });

  it('serves the origins it was given, and only those', async () => {
    const allowed = await serveHttp(runtime, {
      port: 0,
      allowedOrigins: ['HTTP://Localhost:6274/'],
    });
    try {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      expect(
        await rawStatus(allowed.port, '/mcp', { ...headers, origin: 'http://localhost:6274' }),
      ).not.toBe(403);
      expect(await rawStatus(allowed.port, '/mcp', headers)).not.toBe(403);
      expect(
        await rawStatus(allowed.port, '/mcp', { ...headers, origin: 'http://localhost:6275' }),
      ).toBe(403);
    } finally {
      await allowed.close();
    }
    await expect(serveHttp(runtime, { port: 0, allowedOrigins: ['localhost'] })).rejects.toThrow(
      'Not an origin',
    );
  });

  it('with a bearer token, serves only the requests that carry it', async () => {
    const token = 'a-secret-of-thirty-two-characters';
    const guarded = await serveHttp(runtime, { port: 0, bearerToken: token });
    try {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      expect(await rawStatus(guarded.port, '/mcp', headers)).toBe(401);
      expect(
        await rawStatus(guarded.port, '/mcp', { ...headers, authorization: `Bearer ${token}x` }),
      ).toBe(401);
      expect(await rawStatus(guarded.port, '/mcp', { ...headers, authorization: token })).toBe(401);
      const authorized = new Client({ name: 'authorized', version: '1' });
      await authorized.connect(
        new StreamableHTTPClientTransport(new URL(guarded.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      expect((await authorized.listTools()).tools.length).toBeGreaterThan(0);
      await authorized.close();
    } finally {
      await guarded.close();
    }
    await expect(serveHttp(runtime, { port: 0, bearerToken: 'short' })).rejects.toThrow(
      'at least 16',
    );
  });

  it('tells a 2026 client listening for changes that a skill was added', async () => {
    const modern = new Client(
      { name: 'skillhost-modern', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await modern.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    expect(modern.getProtocolEra()).toBe('modern');
    let heard = 0;
    const told = new Promise<void>((resolve) => {
      modern.setNotificationHandler('notifications/tools/list_changed', () => {
        heard += 1;
        resolve();
      });
    });
    const subscription = await modern.listen({ toolsListChanged: true });
    addSkill(tree, 'later');
    await told;
    expect(heard).toBeGreaterThan(0);
    const { tools } = await modern.listTools();
    expect(JSON.stringify(tools)).toContain('"later"');
    await subscription.close();
    await modern.close();
  });

  it('records the calls in the audit trail, chained', () => {
    const parsed = parseAuditLog(sink.text);
    const events = new Set(parsed.records.map((record) => record.event));
    for (const event of ['skill-activate', 'resource-read', 'script-run', 'permission-decide'])
      expect(events).toContain(event);
    const problems = verifyAuditLog(parsed, sha256).flatMap((verdict) => verdict.problems);
    expect(problems.filter((problem) => !problem.includes('session-end'))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
