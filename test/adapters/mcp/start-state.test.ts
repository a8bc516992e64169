import { PassThrough, Writable } from 'node:stream';
import {
  Client,
  type ClientOptions,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ServeStdioOptions,
  type StdioServing,
  serveStdio,
} from '../../../src/adapters/mcp/stdio.js';
import type { CacheStore, DirectoryWatcher } from '../../../src/deps.js';
import { createNodeFileSystem } from '../../../src/node/fs.js';
import { sha256 } from '../../../src/node/hash.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { createSkillRuntime } from '../../../src/runtime/create.js';
import type { SkillRuntime } from '../../../src/runtime/types.js';
import { createRecordingAuditSink } from '../../../src/testing/index.js';
import { addSkill, Scratch, type SkillTree, skillTree } from './fixture.js';

const scratch = new Scratch();
const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
  scratch.removeAll();
});

function memoryCache(): CacheStore & { readonly entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return { entries, load: (key) => entries.get(key), save: (key, text) => entries.set(key, text) };
}

/** A client's side of a pair of pipes: newline-delimited JSON-RPC, as over stdio. */
class PipeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #pending = '';

  constructor(
    readonly toServer: PassThrough,
    readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.#pending += chunk.toString();
      let end = this.#pending.indexOf('\n');
      while (end >= 0) {
        const line = this.#pending.slice(0, end);
        this.#pending = this.#pending.slice(end + 1);
        if (line.trim() !== '') this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        end = this.#pending.indexOf('\n');
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

/** The fixture skills as a runtime, from the index in `cache` when `indexFirst`. */
function runtimeOver(tree: SkillTree, cache?: CacheStore, indexFirst = false): SkillRuntime {
  return createSkillRuntime({
    sources: [{ id: 'test', kind: 'explicit', root: tree.skills, trust: 'trusted', enabled: true }],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink: createRecordingAuditSink(), sessionId: 'start-state' },
    deps: {
      fs: createNodeFileSystem(),
      hash: sha256,
      now: () => new Date(),
      ...(cache === undefined ? {} : { cache }),
    },
    ...(indexFirst ? { indexFirst: true } : {}),
  });
}

interface Started {
  readonly client: Client;
  readonly serving: StdioServing;
  /** Everything the server wrote, as written (recorded when written, not when read). */
  readonly written: string[];
  readonly errors: Error[];
  readonly changed: string[];
}

/** Serves over in-process pipes to a real SDK client, as `skillhost mcp` serves over stdio. */
async function start(
  runtime: SkillRuntime | (() => SkillRuntime),
  options: ServeStdioOptions,
  clientOptions: ClientOptions = {},
  written: string[] = [],
): Promise<Started> {
  const input = new PassThrough();
  const toClient = new PassThrough();
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      toClient.write(chunk);
      done();
    },
  });
  const errors: Error[] = [];
  const serving = await serveStdio(runtime, {
    ...options,
    input,
    output,
    onError: (error) => errors.push(error),
  });
  const client = new Client({ name: 'skillhost-test', version: '1.0.0' }, clientOptions);
  const changed: string[] = [];
  for (const kind of ['tools', 'prompts', 'resources'] as const)
    client.setNotificationHandler(`notifications/${kind}/list_changed`, () => {
      changed.push(kind);
    });
  await client.connect(new PipeClientTransport(input, toClient));
  open.push(async () => {
    await client.close();
    await serving.close();
  });
  return { client, serving, written, errors, changed };
}

/** A runtime opener that records whether the opening answer was written before it ran. */
function recordingOpener(make: () => SkillRuntime, written: readonly string[]) {
  const opener = () => {
    opener.answeredFirst = written.some((text) => text.includes('"instructions"'));
    opener.calls += 1;
    const runtime = make();
    open.push(() => runtime.close());
    return runtime;
  };
  opener.calls = 0;
  opener.answeredFirst = false;
  return opener;
}

const noWatcher: DirectoryWatcher = () => ({ close: async () => {} });

async function waitFor(check: () => boolean): Promise<void> {
  for (let round = 0; round < 4000 && !check(); round += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('serveStdio with a start state', () => {
  it('answers initialize again from what the last run served, before the runtime opens', async () => {
    const tree = skillTree(scratch);
    const cache = memoryCache();
    const startState = { cache, key: 'fixture' };
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState });
    const served = first.client.getInstructions() ?? '';
    expect(served).toContain('hello');
    await first.client.close();
    await first.serving.close();
    expect([...cache.entries.keys()].some((name) => name.startsWith('mcp-start-'))).toBe(true);

    const written: string[] = [];
    const opener = recordingOpener(() => runtimeOver(tree), written);
    const second = await start(opener, { startState }, {}, written);
    expect(second.client.getInstructions()).toBe(served);
    // Other requests wait for the runtime, then answer from it.
    const { tools } = await second.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('skillhost_activate');
    expect(opener.calls).toBe(1);
    expect(opener.answeredFirst).toBe(true);
    const { prompts } = await second.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['guarded', 'hello', 'notes']);
    expect(second.changed).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  it('answers a 2026 client’s server/discover from the saved state too', async () => {
    const tree = skillTree(scratch);
    const startState = { cache: memoryCache(), key: 'fixture' };
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState });
    const served = first.client.getInstructions();
    await first.client.close();
    await first.serving.close();

    const written: string[] = [];
    const opener = recordingOpener(() => runtimeOver(tree), written);
    const modern = await start(
      opener,
      { startState },
      { versionNegotiation: { mode: 'auto' } },
      written,
    );
    expect(modern.client.getProtocolEra()).toBe('modern');
    expect(modern.client.getInstructions()).toBe(served);
    const { tools } = await modern.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('skillhost_read');
    expect(opener.calls).toBe(1);
    expect(opener.answeredFirst).toBe(true);
  });

  it('announces a catalog that changed since the saved state, and saves the new one', async () => {
    const tree = skillTree(scratch);
    const startState = { cache: memoryCache(), key: 'fixture' };
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState });
    await first.client.close();
    await first.serving.close();

    addSkill(tree, 'later');
    const written: string[] = [];
    const opener = recordingOpener(() => runtimeOver(tree), written);
    const second = await start(opener, { startState }, {}, written);
    expect(second.client.getInstructions()).not.toContain('later');
    await waitFor(() => second.changed.includes('tools'));
    expect(second.changed).toEqual(expect.arrayContaining(['tools', 'prompts', 'resources']));
    const { tools } = await second.client.listTools();
    const activate = tools.find((tool) => tool.name === 'skillhost_activate');
    expect(activate?.description).toContain('later');
    await second.client.close();
    await second.serving.close();

    const thirdRuntime = recordingOpener(() => runtimeOver(tree), []);
    const third = await start(thirdRuntime, { startState });
    expect(third.client.getInstructions()).toContain('later');
  });

  it('announces a skill the watch’s first check finds, opened from an index that misses it', async () => {
    const tree = skillTree(scratch);
    const cache = memoryCache();
    const startState = { cache, key: 'fixture' };
    const firstRuntime = runtimeOver(tree, cache, true);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState, watch: true, watcher: noWatcher });
    await first.client.close();
    await first.serving.close();

    addSkill(tree, 'later');
    const written: string[] = [];
    const opener = recordingOpener(() => runtimeOver(tree, cache, true), written);
    const second = await start(
      opener,
      { startState, watch: true, watcher: noWatcher },
      {},
      written,
    );
    expect(opener.answeredFirst).toBe(true);
    expect(second.client.getInstructions()).not.toContain('later');
    await waitFor(() => second.changed.includes('tools'));
    const { tools } = await second.client.listTools();
    expect(tools.find((tool) => tool.name === 'skillhost_activate')?.description).toContain(
      'later',
    );
  });

  it('ignores a damaged saved state, says so, and answers from the runtime', async () => {
    const tree = skillTree(scratch);
    const cache = memoryCache();
    const startState = { cache, key: 'fixture' };
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState });
    const served = first.client.getInstructions();
    await first.client.close();
    await first.serving.close();
    const [name] = [...cache.entries.keys()].filter((key) => key.startsWith('mcp-start-'));
    expect(name).toBeDefined();

    for (const damaged of ['{"key": tru', '[]', '{"key":"other","instructions":"x","tool":""}']) {
      cache.entries.set(name ?? '', damaged);
      const written: string[] = [];
      const opener = recordingOpener(() => runtimeOver(tree), written);
      const again = await start(opener, { startState }, {}, written);
      expect(opener.answeredFirst).toBe(false);
      expect(again.client.getInstructions()).toBe(served);
      expect(again.errors.map((error) => error.message).join('\n')).toContain(
        'saved start-up state is ignored',
      );
      const { tools } = await again.client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      await again.client.close();
      await again.serving.close();
      // Saved again, whole, once the answer was out.
      expect(JSON.parse(cache.entries.get(name ?? '') ?? '{}').instructions).toBe(served);
    }
  });

  it('never answers from the state of another budget or key', async () => {
    const tree = skillTree(scratch);
    const cache = memoryCache();
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState: { cache, key: 'fixture' } });
    await first.client.close();
    await first.serving.close();

    for (const options of [
      { startState: { cache, key: 'fixture' }, budget: 4000 },
      { startState: { cache, key: 'fixture' }, toolCatalogBudget: 0 },
      { startState: { cache, key: 'other sources' } },
    ]) {
      const written: string[] = [];
      const opener = recordingOpener(() => runtimeOver(tree), written);
      const other = await start(opener, options, {}, written);
      expect(opener.calls).toBe(1);
      expect(opener.answeredFirst).toBe(false);
      expect(other.errors).toEqual([]);
      await other.client.close();
      await other.serving.close();
    }
    expect([...cache.entries.keys()].filter((key) => key.startsWith('mcp-start-'))).toHaveLength(4);
  });

  it('closes the connection, and says why, when the runtime cannot be opened', async () => {
    const tree = skillTree(scratch);
    const startState = { cache: memoryCache(), key: 'fixture' };
    const firstRuntime = runtimeOver(tree);
    open.push(() => firstRuntime.close());
    const first = await start(firstRuntime, { startState });
    await first.client.close();
    await first.serving.close();

    const failing = await start(
      () => {
        throw new Error('the audit log cannot be opened');
      },
      { startState },
    );
    await expect(failing.serving.closed).rejects.toThrow('the audit log cannot be opened');
  });
});
