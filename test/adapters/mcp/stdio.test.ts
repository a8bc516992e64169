import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditLog, verifyAuditLog } from '../../../src/audit/reader.js';
import { MemoryAuditSink } from '../../../src/audit/trail.js';
import { sha256 } from '../../../src/node/hash.js';
import { nodeRuntimeDeps } from '../../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { defaultSources } from '../../../src/registry/sources.js';
import { createSkillRuntime } from '../../../src/runtime/create.js';
import { shellRunner } from '../../helpers/shell.js';
import { skillText, writeTree } from '../../helpers/temp.js';
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
  waitFor,
} from './fixture.js';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(repository, 'dist', 'cli', 'bin.js');

/** The built `skillhost mcp`, spawned over stdio, and a real SDK client talking to it. */
describe('skillhost mcp over stdio (the built bin, the SDK client)', () => {
  let tree: SkillTree;
  let auditLog: string;
  let client: Client;
  let stderr = '';
  const changed: string[] = [];
  const clientErrors: Error[] = [];
  const scratch = new Scratch();

  beforeAll(async () => {
    expect(existsSync(bin), 'run npm run build first').toBe(true);
    tree = skillTree(scratch);
    const home = scratch.folder('skillhost-mcp-home-');
    auditLog = join(home, 'audit.jsonl');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--no-default-sources', '--skills', tree.skills, '--audit-log', auditLog],
      env: { ...getDefaultEnvironment(), SKILLHOST_HOME: join(home, '.skillhost') },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'skillhost-test', version: '1.0.0' });
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      client.setNotificationHandler(`notifications/${kind}/list_changed`, () => {
        changed.push(kind);
      });
    }
    // A line on stdout that is not a protocol message would surface here.
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    scratch.removeAll();
  });

  it('initializes with the catalog in the instructions', () => {
    expect(client.getServerVersion()?.name).toBe('skillhost');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('<available_skills>');
    for (const name of ['hello', 'guarded', 'notes'])
      expect(instructions).toContain(`<name>${name}</name>`);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools?.listChanged).toBe(true);
    expect(capabilities?.prompts?.listChanged).toBe(true);
    expect(capabilities?.resources?.listChanged).toBe(true);
    expect(capabilities?.extensions?.['io.modelcontextprotocol/skills']).toEqual({
      directoryRead: true,
    });
  });

  it('lists exactly the runtime tools, JSON Schemas as they are', async () => {
    const runtime = createSkillRuntime({
      sources: defaultSources({
        projectDir: tree.root,
        projectTrusted: false,
        homeDir: tree.root,
        explicit: [{ root: tree.skills, trust: 'trusted' }],
        external: [],
        noDefaults: true,
      }),
      policy: { tools: [...CANONICAL_TOOLS] },
      audit: { sink: new MemoryAuditSink(), sessionId: 'expected' },
      deps: nodeRuntimeDeps({ runner: shellRunner() }),
    });
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
    expect(tools.map((tool) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
    ]);
  });

  // The script run through the built bin needs bubblewrap: test/sandbox/mcp-stdio.test.ts.
  it('activates a skill and reads its files', async () => {
    const activation = await client.callTool({
      name: 'skillhost_activate',
      arguments: { name: 'hello' },
    });
    expect(activation.isError).toBe(false);
    expect(textOf(activation)).toContain('Run scripts/greet.sh with the name.');
    expect(metaOf(activation)).toMatchObject({
      name: 'hello',
      files: ['assets/logo.png', 'references/guide.md', 'scripts/greet.sh'],
    });

    const read = await client.callTool({
      name: 'skillhost_read',
      arguments: { name: 'hello', path: 'references/guide.md' },
    });
    expect(textOf(read)).toBe('# Guide\n\nBe kind.\n');
  });

  it('refuses a script run nothing pre-approved: the server asks no one', async () => {
    await client.callTool({ name: 'skillhost_activate', arguments: { name: 'guarded' } });
    const run = await client.callTool({
      name: 'skillhost_run',
      arguments: { name: 'guarded', script: 'scripts/count.sh' },
    });
    expect(run.isError).toBe(true);
    expect(metaOf(run)).toEqual({ code: 'PERMISSION_REQUIRED' });
  });

  it('searches the skills', async () => {
    const search = await client.callTool({
      name: 'skillhost_search',
      arguments: { query: 'say hello to people' },
    });
    expect(search.isError).toBe(false);
    const results = (metaOf(search) as { results: Array<{ name: string }> }).results;
    expect(results[0]?.name).toBe('hello');
  });

  it('answers bad calls with coded error results and keeps serving', async () => {
    await expectBadCallsRefused(client);
  });

  it("lists each skill's files as resources and reads them through the runtime", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'skill://hello/SKILL.md',
        'skill://hello/references/guide.md',
        'skill://hello/assets/logo.png',
        'skill://hello/scripts/greet.sh',
        'skill://notes/SKILL.md',
      ]),
    );
    const guide = await client.readResource({ uri: 'skill://hello/references/guide.md' });
    expect(guide.contents).toEqual([
      {
        uri: 'skill://hello/references/guide.md',
        mimeType: 'text/markdown',
        text: '# Guide\n\nBe kind.\n',
      },
    ]);
    const logo = await client.readResource({ uri: 'skill://hello/assets/logo.png' });
    const [content] = logo.contents as Array<{ blob?: string; mimeType?: string }>;
    expect(content?.mimeType).toBe('image/png');
    expect(Buffer.from(content?.blob ?? '', 'base64')).toEqual(Buffer.from(LOGO));
  });

  it('refuses URIs that try to escape, and keeps serving', async () => {
    for (const uri of ESCAPES) {
      const error = await rejection(client.readResource({ uri }));
      expect(error.message, uri).not.toContain(OUTSIDE_SECRET);
      expect(error.code, uri).toBe(-32602);
    }
    const missing = await rejection(client.readResource({ uri: 'skill://hello/missing.md' }));
    expect(missing.message).toContain('RESOURCE_NOT_FOUND');
    const skill = await client.readResource({ uri: 'skill://hello/SKILL.md' });
    expect(JSON.stringify(skill)).toContain('name: hello');
  });

  it('offers each skill as a prompt that activates it for the user', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual(
      expect.arrayContaining([
        { name: 'hello', description: 'Greets people by name. Use when asked to say hello.' },
      ]),
    );
    // Already activated by the model above: a prompt still sends the whole body.
    const prompt = await client.getPrompt({ name: 'hello' });
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]?.role).toBe('user');
    expect(JSON.stringify(prompt.messages[0]?.content)).toContain('Run scripts/greet.sh');
    const error = await rejection(client.getPrompt({ name: 'nobody' }));
    expect(error.message).toContain('SKILL_NOT_FOUND');
  });

  it('serves the MCP skills extension from the runtime', async () => {
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.skills.map((skill) => skill.uri)).toEqual(
      expect.arrayContaining([
        'skill://hello/SKILL.md',
        'skill://guarded/SKILL.md',
        'skill://notes/SKILL.md',
      ]),
    );
    const { skill } = await skills.get('skill://notes/SKILL.md');
    expect(skill.frontmatter).toEqual({
      name: 'notes',
      description: 'Keeps meeting notes tidy. Use for minutes.',
      license: 'MIT',
    });
    const manifest = await skills.read(skill);
    expect(manifest.frontmatter).toEqual(skill.frontmatter);
    expect(manifest.body).toContain('Do the thing.');
    const root = await skills.readDirectory('skill://hello/');
    expect(root.resources.map((resource) => resource.name).sort()).toEqual([
      'SKILL.md',
      'assets',
      'references',
      'scripts',
    ]);
    const references = await skills.readDirectory('skill://hello/references/');
    expect(references.resources.map((resource) => resource.uri)).toEqual([
      'skill://hello/references/guide.md',
    ]);
  });

  it('tells the client when a skill folder is added (the CLI watches the sources)', async () => {
    changed.length = 0;
    addSkill(tree, 'later');
    await new Promise<void>((done) => {
      const check = setInterval(() => {
        if (['tools', 'prompts', 'resources'].every((kind) => changed.includes(kind))) {
          clearInterval(check);
          done();
        }
      }, 20);
    });
    const { tools } = await client.listTools();
    const activate = tools.find((tool) => tool.name === 'skillhost_activate');
    expect(JSON.stringify(activate?.inputSchema)).toContain('"later"');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('later');
  });

  it('a skill added while no server ran is announced by a server started from a stale index', async () => {
    // A tree and an index of its own: the first server writes the index, then, while no
    // server runs, a skill is added, another's description changes and a third is removed.
    const own = skillTree(scratch);
    const home = scratch.folder('skillhost-mcp-stale-');
    const env = { ...getDefaultEnvironment(), SKILLHOST_HOME: join(home, '.skillhost') };
    const argv = [bin, 'mcp', '--no-default-sources', '--skills', own.skills];
    const start = async () => {
      const started = new Client({ name: 'skillhost-test', version: '1.0.0' });
      const told = new Set<string>();
      let wake = () => {};
      for (const kind of ['tools', 'prompts', 'resources'] as const) {
        started.setNotificationHandler(`notifications/${kind}/list_changed`, () => {
          told.add(kind);
          wake();
        });
      }
      await started.connect(
        new StdioClientTransport({ command: process.execPath, args: argv, env, stderr: 'ignore' }),
      );
      return { client: started, told, onNotice: (listener: () => void) => (wake = listener) };
    };
    const first = await start();
    expect(first.client.getInstructions()).toContain('<name>notes</name>');
    await first.client.close();
    expect(readdirSync(join(home, '.skillhost')).length).toBeGreaterThan(0);

    addSkill(own, 'while-away');
    writeTree(own.skills, {
      'notes/SKILL.md': skillText('name: notes\ndescription: Rewrites minutes while away.'),
    });
    rmSync(join(own.skills, 'guarded'), { recursive: true });

    const second = await start();
    try {
      const listed = async () => {
        const { tools } = await second.client.listTools();
        const activate = tools.find((tool) => tool.name === 'skillhost_activate');
        return { schema: JSON.stringify(activate?.inputSchema), text: activate?.description ?? '' };
      };
      // Answered from the index as it was saved, the catalog at initialize may be stale; then
      // the client must be told, and what it lists again is the skills as they are now.
      if (!(second.client.getInstructions() ?? '').includes('<name>while-away</name>')) {
        await waitFor(
          () => ['tools', 'prompts', 'resources'].every((kind) => second.told.has(kind)),
          second.onNotice,
          'list_changed for tools, prompts and resources',
        );
      }
      const now = await listed();
      expect(now.schema).toContain('"while-away"');
      expect(now.schema).not.toContain('"guarded"');
      // The activation tool's catalog, which depends on the skills, is told again too.
      expect(now.text).toContain('while-away');
      expect(now.text).toContain('Rewrites minutes while away.');
      const { prompts } = await second.client.listPrompts();
      expect(prompts.map((entry) => entry.name).sort()).toEqual(['hello', 'notes', 'while-away']);
      const activation = await second.client.callTool({
        name: 'skillhost_activate',
        arguments: { name: 'while-away' },
      });
      expect(activation.isError).toBeFalsy();
      expect(textOf(activation)).toContain('while-away');
    } finally {
      await second.client.close();
    }
  }, 60_000);

  it('records every call in the audit log, in an intact chain', async () => {
    const parsed = parseAuditLog(readFileSync(auditLog, 'utf8'));
    const events = parsed.records.map((record) => `${record.event}:${record.skill_name ?? ''}`);
    expect(events).toEqual(
      expect.arrayContaining([
        'session-start:',
        'skill-activate:hello',
        'resource-read:hello',
        'permission-decide:guarded',
      ]),
    );
    const activations = parsed.records.filter((record) => record.event === 'skill-activate');
    expect(activations.map((record) => record.triggered_by)).toEqual(
      expect.arrayContaining(['model', 'user']),
    );
    const escapes = parsed.records.filter(
      (record) => record.event === 'resource-read' && record.error !== null,
    );
    expect(escapes.length).toBeGreaterThan(0);
    // The server still runs: its session has no end record yet, and that is all.
    const problems = verifyAuditLog(parsed, sha256).flatMap((verdict) => verdict.problems);
    expect(problems.filter((problem) => !problem.includes('session-end'))).toEqual([]);
    expect(stderr).not.toContain(OUTSIDE_SECRET);
  });

  it('ends the audit session when the client closes stdin, having written only protocol', async () => {
    await client.close();
    const records = parseAuditLog(readFileSync(auditLog, 'utf8')).records;
    expect(records.at(-1)?.event).toBe('session-end');
    const problems = verifyAuditLog(parseAuditLog(readFileSync(auditLog, 'utf8')), sha256);
    expect(problems.flatMap((verdict) => verdict.problems)).toEqual([]);
    expect(clientErrors).toEqual([]);
  });
});
