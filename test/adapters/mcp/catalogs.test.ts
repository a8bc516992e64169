import { describe, expect, it } from 'vitest';
import { SkillServerHub } from '../../../src/adapters/mcp/server.js';
import type { CacheStore } from '../../../src/deps.js';
import { loadTokenCounter } from '../../../src/disclosure/tokens.js';
import { sha256 } from '../../../src/node/hash.js';
import { CANONICAL_TOOLS } from '../../../src/policy/tools.js';
import { createSkillRuntime } from '../../../src/runtime/create.js';
import {
  createFakeClock,
  createMemoryFileSystem,
  createRecordingAuditSink,
  skillFixture,
} from '../../../src/testing/index.js';

/** `count` skills in memory, each with a description of about 40 tokens. */
function runtimeOf(count: number, describe = (index: number) => `Handles case ${index}.`) {
  const files: Record<string, string | Uint8Array> = {};
  for (let index = 0; index < count; index += 1) {
    Object.assign(
      files,
      skillFixture({
        name: `skill-${String(index).padStart(4, '0')}`,
        description: `${describe(index)} Use it when the user asks about topic number ${index}, its reports, its tables and its summaries.`,
      }),
    );
  }
  return createSkillRuntime({
    sources: [
      {
        id: 'mem',
        kind: 'explicit',
        root: '/skills',
        trust: 'trusted',
        enabled: true,
      },
    ],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink: createRecordingAuditSink(), sessionId: 'catalogs' },
    deps: {
      fs: createMemoryFileSystem(files, { root: '/skills' }),
      hash: sha256,
      now: createFakeClock().now,
    },
  });
}

function memoryCache(): CacheStore & { readonly entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return { entries, load: (key) => entries.get(key), save: (key, text) => entries.set(key, text) };
}

/** A counter loader that counts its calls (the real o200k counter underneath). */
function countingLoader() {
  const loader = async () => {
    loader.calls += 1;
    return loadTokenCounter();
  };
  loader.calls = 0;
  return loader;
}

describe('the MCP server’s catalogs, within their budgets', () => {
  it('serves a catalog far under its budget without loading the tokenizer', async () => {
    const runtime = runtimeOf(3);
    const loadCounter = countingLoader();
    const hub = new SkillServerHub(runtime, { loadCounter });
    await hub.prepare();
    expect(loadCounter.calls).toBe(0);
    const instructions = hub.instructions();
    for (const name of ['skill-0000', 'skill-0001', 'skill-0002'])
      expect(instructions).toContain(`<name>${name}</name>`);
    expect(instructions).toContain('Handles case 2.');
    // The activation tool's description carries the catalog too, with the descriptions.
    const activate = hub.tools().find((tool) => tool.name === 'skillhost_activate');
    expect(activate?.description).toContain('**skill-0001**: Handles case 1.');
    await runtime.close();
  });

  it('counts a catalog that is cut, and keeps it within the budget with the marker', async () => {
    const runtime = runtimeOf(400);
    const loadCounter = countingLoader();
    const hub = new SkillServerHub(runtime, { budget: 2000, toolCatalogBudget: 300, loadCounter });
    await hub.prepare();
    expect(loadCounter.calls).toBe(1);
    const count = await loadTokenCounter();
    const catalog = hub.instructions().slice(hub.instructions().indexOf('<available_skills>'));
    expect(count(catalog)).toBeLessThanOrEqual(2000);
    expect(catalog).toMatch(
      /<hidden_skills count="\d+">\d+ more skills are not listed here; call the skillhost_search tool/,
    );
    const activate = hub.tools().find((tool) => tool.name === 'skillhost_activate');
    const description = activate?.description ?? '';
    const toolCatalog = description.slice(description.indexOf('## Available'));
    expect(count(toolCatalog ?? '')).toBeLessThanOrEqual(300);
    expect(toolCatalog).toContain('call the skillhost\\_search tool');
    await runtime.close();
  });

  it('answers a second start over the same skills from the cache, without the tokenizer', async () => {
    const cache = memoryCache();
    const first = runtimeOf(400);
    const counted = countingLoader();
    const hub = new SkillServerHub(first, {
      budget: 2000,
      loadCounter: counted,
      catalogCache: cache,
    });
    await hub.prepare();
    expect(counted.calls).toBe(1);
    expect(cache.entries.size).toBe(1);

    const again = countingLoader();
    const second = runtimeOf(400);
    const warm = new SkillServerHub(second, {
      budget: 2000,
      loadCounter: again,
      catalogCache: cache,
    });
    await warm.prepare();
    expect(again.calls).toBe(0);
    expect(warm.instructions()).toBe(hub.instructions());

    // Other skills (one description changed): the entry is not theirs, so they are counted.
    const changed = runtimeOf(400, (index) =>
      index === 7 ? 'Changed.' : `Handles case ${index}.`,
    );
    const recount = countingLoader();
    const other = new SkillServerHub(changed, {
      budget: 2000,
      loadCounter: recount,
      catalogCache: cache,
    });
    await other.prepare();
    expect(recount.calls).toBe(1);
    await Promise.all([first.close(), second.close(), changed.close()]);
  });

  it('leaves the catalog out of the tool description when told to', async () => {
    const runtime = runtimeOf(2);
    const hub = new SkillServerHub(runtime, { toolCatalogBudget: 0 });
    await hub.prepare();
    const activate = hub.tools().find((tool) => tool.name === 'skillhost_activate');
    expect(activate?.description).toBe(runtime.tools()[0]?.description);
    expect(() => new SkillServerHub(runtime, { budget: -1 })).toThrow('budget');
    await runtime.close();
  });
});
