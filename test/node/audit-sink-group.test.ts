import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAuditLog } from '../../src/audit/reader.js';
import { openJsonlAuditSink } from '../../src/node/audit-sink.js';
import { sha256 } from '../../src/node/hash.js';
import { nodeRuntimeDeps } from '../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import { tempDir } from '../helpers/temp.js';

const flushes = vi.hoisted(() => ({ count: 0 }));

// The flushes are counted where they happen: the sink's calls of fsyncSync.
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return {
    ...fs,
    fsyncSync: (descriptor: number) => {
      flushes.count += 1;
      fs.fsyncSync(descriptor);
    },
  };
});

afterEach(() => {
  flushes.count = 0;
});

describe('the JSON Lines audit sink, grouping flushes', () => {
  it('flushes a group of records once, at its end, and every other record by itself', () => {
    const path = join(tempDir('skillhost-sink-'), 'audit.jsonl');
    const sink = openJsonlAuditSink(path);
    sink.write('{"a":1}\n');
    expect(flushes.count).toBe(1);
    const result = sink.group?.(() => {
      sink.write('{"b":2}\n');
      sink.group?.(() => sink.write('{"c":3}\n'));
      sink.write('{"d":4}\n');
      expect(flushes.count).toBe(1);
      return 'done';
    });
    expect(result).toBe('done');
    expect(flushes.count).toBe(2);
    sink.write('{"e":5}\n');
    expect(flushes.count).toBe(3);
    sink.close();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(5);
    const never = openJsonlAuditSink(join(tempDir('skillhost-sink-'), 'a.jsonl'), {
      fsync: 'never',
    });
    never.group?.(() => never.write('{"f":6}\n'));
    never.close();
    expect(flushes.count).toBe(3);
  });

  it('a runtime’s start (its session and each source’s discovery) is flushed once', async () => {
    const root = tempDir('skillhost-sink-');
    const path = join(root, 'audit.jsonl');
    const sink = openJsonlAuditSink(path);
    const runtime = createSkillRuntime({
      sources: ['a', 'b', 'c'].map((id) => ({
        id,
        kind: 'explicit' as const,
        root: join(root, id),
        trust: 'trusted' as const,
        enabled: true,
      })),
      policy: { tools: [...CANONICAL_TOOLS] },
      audit: { sink, sessionId: 'start' },
      deps: { ...nodeRuntimeDeps(), hash: sha256 },
    });
    expect(flushes.count).toBe(1);
    const records = parseAuditLog(readFileSync(path, 'utf8')).records;
    expect(records.map((record) => record.event)).toEqual([
      'session-start',
      'skill-discover',
      'skill-discover',
      'skill-discover',
    ]);
    await runtime.close();
    sink.close();
    expect(flushes.count).toBe(2);
  });
});
