import { describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../../src/deps.js';
import { createSandboxRunner, probeBubblewrap } from '../../src/node/sandbox.js';
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
});
