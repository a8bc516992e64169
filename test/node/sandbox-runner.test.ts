import { describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../../src/deps.js';
import { createSandboxRunner, probeBubblewrap } from '../../src/node/sandbox.js';
import { seccompProgram } from '../../src/node/sandbox-writes.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../src/runtime/script-run.js';
import { captureOutput } from '../../src/testing/index.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// The real runner where no sandbox is used: its refusal, and its explicitly allowed fallback.
// Runs inside bubblewrap are the sandbox suite's (test/sandbox/).

function request(script: string, overrides: Partial<ScriptRunRequest> = {}): ScriptRunRequest {
  const skillDirectory = writeTree(tempDir('skillhost-skill-'), { 'scripts/run.sh': script });
  return {
    skillDirectory,
    scriptPath: 'scripts/run.sh',
    scriptBytes: new TextEncoder().encode(script),
    interpreter: 'sh',
    args: [],
    limits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 20_000 },
    ...overrides,
  };
}

describe('the sandbox runner without a sandbox', () => {
  it('says why no sandbox is available', () => {
    expect(probeBubblewrap(false)).toEqual({
      available: false,
      reason: 'the sandbox is switched off (bubblewrap: false)',
    });
    expect(probeBubblewrap('/nonexistent/bwrap')).toEqual({
      available: false,
      reason: 'bubblewrap (/nonexistent/bwrap) is not installed',
    });
    expect(createSandboxRunner({ bubblewrap: false }).sandbox().available).toBe(false);
  });

  it('refuses to run, unless unsandboxed runs are allowed', async () => {
    const runner = createSandboxRunner({ bubblewrap: '/nonexistent/bwrap' });
    await expect(runner.run(request('#!/bin/sh\necho hi\n'))).rejects.toMatchObject({
      code: 'SANDBOX_UNAVAILABLE',
      message: expect.stringContaining('is not installed'),
    });
    const loose = await runner.run(
      request('#!/bin/sh\necho "hi $1"\n', { args: ['there'], allowUnsandboxed: true }),
    );
    expect(loose).toMatchObject({ sandbox: 'none', exitCode: 0, timedOut: false });
    expect(loose.stdout.head).toBe('hi there\n');
  });

  it('captures output exactly as the scripted runner of skillhost/testing does', async () => {
    // 300 pieces of 5 bytes each ("é" is two): head and tail cut inside a character.
    const script = "#!/bin/sh\ni=100\nwhile [ $i -lt 400 ]; do printf 'é%d' $i; i=$((i+1)); done\n";
    let expected = '';
    for (let i = 100; i < 400; i += 1) expected += `é${i}`;
    const limits = { ...DEFAULT_SCRIPT_LIMITS, maxCapturedBytes: 101 };
    const result = await createSandboxRunner({ bubblewrap: false }).run(
      request(script, { limits, allowUnsandboxed: true }),
    );
    expect(result.stdout.totalBytes).toBe(1500);
    expect(result.stdout).toEqual(captureOutput(expected, 101));
  });

  it('counts what an unsandboxed script dirties on disk, and stops it past the write budget', async () => {
    const script =
      '#!/bin/sh\ni=0\nwhile [ $i -lt 200 ]; do head -c 1048576 /dev/zero > "$TMPDIR/f$i"; i=$((i+1)); done\necho SURVIVED\n';
    const limits = { ...DEFAULT_SCRIPT_LIMITS, maxWriteBytes: 8 * 1024 * 1024 };
    const result = await createSandboxRunner({ bubblewrap: false }).run(
      request(script, { limits, allowUnsandboxed: true }),
    );
    expect(result).toMatchObject({ sandbox: 'none', resourceLimit: 'write', signal: 'SIGKILL' });
    expect(result.stdout.head).not.toContain('SURVIVED');
  });
});

/** Runs a classic BPF seccomp program on one call, as the kernel would. */
function filter(program: Buffer, arch: number, nr: number): number {
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jumpTrue = program.readUInt8(pc * 8 + 2);
    const jumpFalse = program.readUInt8(pc * 8 + 3);
    const value = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) accumulator = value === 0 ? nr : value === 4 ? arch : Number.NaN;
    else if (code === 0x06) return value;
    else if (code === 0x15 || code === 0x35) {
      const taken = code === 0x15 ? accumulator === value : accumulator >= value;
      pc += 1 + (taken ? jumpTrue : jumpFalse);
      continue;
    } else throw new Error(`unexpected instruction ${code}`);
    pc += 1;
  }
  throw new Error('fell off the program');
}

describe('the seccomp filter of the write budget', () => {
  const ALLOW = 0x7fff0000;
  const errno = (value: number) => 0x00050000 | value;
  it('refuses fallocate, memfd_create, shmget and io_uring_setup, and nothing else', () => {
    const tables = {
      x64: { arch: 0xc000003e, calls: [285, 319, 29, 425], others: [0, 1, 2, 59, 257, 318] },
      arm64: { arch: 0xc00000b7, calls: [47, 279, 194, 425], others: [56, 63, 64, 221] },
    };
    for (const [name, table] of Object.entries(tables)) {
      const program = seccompProgram(name) as Buffer;
      const [fallocate, ...rest] = table.calls;
      expect(filter(program, table.arch, fallocate as number)).toBe(errno(95));
      for (const call of rest) expect(filter(program, table.arch, call)).toBe(errno(38));
      for (const call of table.others) expect(filter(program, table.arch, call)).toBe(ALLOW);
      // Another ABI's numbers mean other calls: all of them are refused.
      expect(filter(program, 0x40000003, 5)).toBe(errno(38));
    }
    // x32 calls on x86-64 carry their own numbers.
    expect(filter(seccompProgram('x64') as Buffer, 0xc000003e, 0x40000000 + 285)).toBe(errno(38));
    expect(seccompProgram('mips')).toBeUndefined();
  });
});
