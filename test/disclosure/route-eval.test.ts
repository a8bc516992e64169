import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as yaml from 'yaml';
import { SkillRouter } from '../../src/disclosure/router.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { SkillRegistry } from '../../src/registry/registry.js';

const evalDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'eval', 'route');

interface Task {
  readonly task: string;
  readonly should: readonly string[];
  readonly shouldNot?: readonly string[];
}

describe('the router on the evaluation set of its own skills', () => {
  it('ranks an expected skill in the top three for at least 90% of the tasks, and selects no wrong one', () => {
    const { suites } = JSON.parse(readFileSync(join(evalDir, 'tasks.json'), 'utf8')) as {
      suites: Array<{ name: string; skills?: string; tasks: Task[] }>;
    };
    const suite = suites.find((item) => item.name === 'fixtures');
    const registry = SkillRegistry.open({
      fs: createNodeFileSystem(),
      yaml,
      sources: [
        {
          id: 'eval',
          kind: 'explicit',
          root: join(evalDir, suite?.skills ?? ''),
          trust: 'trusted',
          enabled: true,
        },
      ],
    });
    const router = new SkillRouter(
      registry.active().map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
      })),
    );
    let expecting = 0;
    let inTopThree = 0;
    const wrong: string[] = [];
    for (const { task, should, shouldNot = [] } of suite?.tasks ?? []) {
      const result = router.route(task);
      for (const name of result.selected)
        if (shouldNot.includes(name) || !should.includes(name)) wrong.push(`${task} -> ${name}`);
      if (should.length === 0) continue;
      expecting += 1;
      if (result.ranked.slice(0, 3).some((candidate) => should.includes(candidate.name)))
        inTopThree += 1;
    }
    expect(expecting).toBeGreaterThan(8);
    expect(inTopThree / expecting).toBeGreaterThanOrEqual(0.9);
    expect(wrong).toEqual([]);
  });
});
