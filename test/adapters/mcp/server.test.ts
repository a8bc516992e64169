import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createMcpServer, type McpServerOptions } from '../../../src/adapters/mcp/index.js';
import { parseAuditLog } from '../../../src/audit/reader.js';
import { MemoryAuditSink } from '../../../src/audit/trail.js';
import type { DirectoryWatcher } from '../../../src/deps.js';
import { createNodeFileSystem } from '../../../src/node/fs.js';
import { sha256 } from '../../../src/node/hash.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { type CreateSkillRuntimeOptions, createSkillRuntime } from '../../../src/runtime/create.js';
import { skillText, tempDir, writeTree } from '../../helpers/temp.js';
import {
  addSkill,
  metaOf,
  rejection,
  Scratch,
  type SkillTree,
  skillTree,
  textOf,
} from './fixture.js';

const scratch = new Scratch();
const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0)) await close();
  scratch.removeAll();
});

/** A runtime over the fixture skills (no script runner), served in memory to a real client. */
async function connect(
  options: {
    runtime?: Partial<CreateSkillRuntimeOptions>;
    server?: McpServerOptions;
    tree?: SkillTree;
  } = {},
) {
  const tree = options.tree ?? skillTree(scratch);
  const sink = new MemoryAuditSink();
  const runtime = createSkillRuntime({
    sources: [{ id: 'test', kind: 'explicit', root: tree.skills, trust: 'trusted', enabled: true }],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'server-test' },
    deps: { fs: createNodeFileSystem(), hash: sha256, now: () => new Date() },
    ...options.runtime,
  });
  const server = createMcpServer(runtime, options.server);
  const client = new Client({ name: 'skillhost-test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await runtime.close();
  });
  return { tree, runtime, client, records: () => parseAuditLog(sink.text).records };
}

describe('createMcpServer', () => {
  it('lists each skill’s frontmatter as the served SKILL.md parses, every field of it', async () => {
    const tree = skillTree(scratch);
    const frontmatter = [
      'name: folded',
      'description: >',
      '  Folds a long description',
      '  over two lines. Use when folding.',
      'metadata:',
      '  version: "1.0"',
      '  author: Ada',
      'when_to_use: "when asked"',
      'user-invocable: true',
    ].join('\n');
    writeTree(tree.skills, {
      'folded/SKILL.md': skillText(frontmatter, '# Folded\n'),
      // Parsed as a client parses it, its metadata holds a number: not an entry the skills
      // extension allows, so it is left out of skills/list (the tools and prompts still serve it).
      'numbered/SKILL.md': skillText(
        'name: numbered\ndescription: Has a numbered version. Use for numbers.\nmetadata:\n  version: 1.0',
      ),
    });
    const { client } = await connect({ tree });
    const skills = new SkillsClient(client);
    const { skills: listed } = await skills.list();
    const folded = listed.find((skill) => skill.uri === 'skill://folded/SKILL.md');
    // The YAML as any client parses the served file: the folded text keeps its final line
    // break, a boolean is a boolean, and fields skillhost does not load are listed too.
    expect(folded?.frontmatter).toEqual(parseYaml(frontmatter));
    expect(folded?.frontmatter.description).toBe(
      'Folds a long description over two lines. Use when folding.\n',
    );
    const served = await client.readResource({ uri: 'skill://folded/SKILL.md' });
    const text = JSON.stringify(served.contents[0]);
    expect(text).toContain('description: >');
    const manifest = await skills.read(folded!);
    expect(manifest.frontmatter).toEqual(folded?.frontmatter);
    expect(listed.map((skill) => skill.uri)).not.toContain('skill://numbered/SKILL.md');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('numbered');
  });

  it('serves only the skills in the runtime scope, whatever the URI or prompt names', async () => {
    const { client, records } = await connect({ runtime: { scope: ['notes'] } });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['notes']);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['skill://notes/SKILL.md']);
    const read = await rejection(client.readResource({ uri: 'skill://hello/SKILL.md' }));
    expect(read.message).toContain('SKILL_NOT_FOUND');
    const prompt = await rejection(client.getPrompt({ name: 'hello' }));
    expect(prompt.message).toContain('SKILL_NOT_FOUND');
    const refused = records().filter((record) => record.error?.code === 'SKILL_NOT_FOUND');
    expect(refused.map((record) => record.event).sort()).toEqual([
      'resource-read',
      'skill-activate',
    ]);
  });

  it("applies the host's policy to resource reads and prompts", async () => {
    const { client } = await connect({
      runtime: { policy: { tools: ['search_skills'] } },
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['skillhost_search']);
    const read = await rejection(client.readResource({ uri: 'skill://hello/SKILL.md' }));
    expect(read.message).toContain('PERMISSION_DENIED');
    const prompt = await rejection(client.getPrompt({ name: 'hello' }));
    expect(prompt.message).toContain('PERMISSION_DENIED');
  });

  it('caps the resource listing', async () => {
    const { client } = await connect({ server: { maxListedResources: 3 } });
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(3);
  });

  it('offers no tools and says so when no skill is usable', async () => {
    const empty = tempDir('skillhost-mcp-empty-');
    const { client } = await connect({ tree: { root: empty, skills: empty } });
    expect((await client.listTools()).tools).toEqual([]);
    expect(client.getInstructions()).toContain('No skill is available.');
    const call = await client.callTool({ name: 'skillhost_activate', arguments: { name: 'x' } });
    expect(call.isError).toBe(true);
    expect(textOf(call)).toContain('TOOL_UNKNOWN');
  });

  it('without a script runner, skillhost_run is not offered', async () => {
    const { client } = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('skillhost_run');
    const run = await client.callTool({
      name: 'skillhost_run',
      arguments: { name: 'hello', script: 'scripts/greet.sh' },
    });
    expect(metaOf(run)).toEqual({ code: 'TOOL_UNKNOWN' });
  });

  it('with watch, tells the client of every registry change the watcher reports', async () => {
    let notify: (path: string) => void = () => {};
    const watcher: DirectoryWatcher = (_roots, onChange) => {
      notify = onChange;
      return { close: async () => {} };
    };
    const tree = skillTree(scratch);
    const { client } = await connect({ tree, server: { watch: true, watcher } });
    const heard = new Promise<void>((resolve) => {
      client.setNotificationHandler('notifications/prompts/list_changed', () => resolve());
    });
    addSkill(tree, 'later');
    notify(tree.skills);
    await heard;
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('later');
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools)).toContain('"later"');
  });

  it('a watcher that fails reaches onError, and the server keeps serving', async () => {
    const errors: Error[] = [];
    const watcher: DirectoryWatcher = () => {
      throw new Error('no file events here');
    };
    const { client } = await connect({
      server: { watch: true, watcher, onError: (error) => errors.push(error) },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors.map((error) => error.message)).toEqual(['no file events here']);
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
  });
});
