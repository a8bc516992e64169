import { describe, expect, it } from 'vitest';
import { runTool, type WorldOptions, world } from '../helpers/runtime.js';

// Memory is limited by what a process really uses (its data segment), not by the address space
// it reserves: Node reserves far more than it touches.

const sandboxed = (options: WorldOptions) =>
  world({ ...options, runner: 'bubblewrap', limits: { timeoutMs: 60_000, ...options.limits } });

describe('the memory limit', () => {
  it('lets a Node script fill 1 GiB of typed arrays and build 3 million objects (default 2 GiB)', async () => {
    const w = sandboxed({
      files: {
        'scripts/big.js': [
          'const buffers = [];',
          'for (let i = 0; i < 16; i += 1) buffers.push(new Uint8Array(64 * 1024 * 1024).fill(1));',
          'const objects = [];',
          'for (let i = 0; i < 3e6; i += 1) objects.push({ i, s: "x" + i });',
          'console.log("filled", buffers.length * 64, "MiB and", objects.length, "objects");',
        ].join('\n'),
      },
    });
    const run = await runTool(w, 'scripts/big.js');
    expect(run.result.stderr.head).toBe('');
    expect(run.result).toMatchObject({ exitCode: 0 });
    expect(run.result.resourceLimit).toBeUndefined();
    expect(run.result.stdout.head).toContain('filled 1024 MiB and 3000000 objects');
  });

  it('stops a Node script past the limit with the memory limit named, not a native crash', async () => {
    const w = sandboxed({
      limits: { maxMemoryBytes: 512 * 1024 * 1024 },
      // The model's call is confirmed by the user.
      answers: ['yes'],
      files: {
        'scripts/flood.js': [
          'const buffers = [];',
          'for (let i = 0; i < 32; i += 1) buffers.push(new Uint8Array(64 * 1024 * 1024).fill(1));',
          'console.log("SURVIVED");',
        ].join('\n'),
      },
    });
    const run = await runTool(w, 'scripts/flood.js');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
    expect(run.result.resourceLimit).toBe('memory');
    const ran = w.records().find((record) => record.event === 'script-run');
    expect(ran?.tool_or_script_calls[0]).toMatchObject({ resource_limit: 'memory' });
    const tool = await w.runtime.callTool('run_skill_script', {
      name: 'tool',
      script: 'scripts/flood.js',
    });
    expect(tool).toMatchObject({
      isError: true,
      code: 'RESOURCE_LIMIT',
      data: { limit: 'memory' },
    });
    expect(tool.text).toContain('memory limit');
  });

  it('says memory for a Python script past the limit', async () => {
    const w = sandboxed({
      limits: { maxMemoryBytes: 256 * 1024 * 1024 },
      files: {
        'scripts/flood.py':
          '#!/usr/bin/env python3\nblocks = [bytearray(64 * 1024 * 1024) for _ in range(16)]\nprint("SURVIVED")\n',
      },
    });
    const run = await runTool(w, 'scripts/flood.py');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
    expect(run.result.resourceLimit).toBe('memory');
  });
});
