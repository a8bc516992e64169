import { describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../../src/deps.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../src/runtime/script-run.js';
import { captureOutput, createScriptedRunner } from '../../src/testing/index.js';

function request(overrides: Partial<ScriptRunRequest> = {}): ScriptRunRequest {
  return {
    skillDirectory: '/skills/demo',
    scriptPath: 'scripts/run.sh',
    scriptBytes: new TextEncoder().encode('echo hi\n'),
    interpreter: 'sh',
    args: ['a'],
    limits: DEFAULT_SCRIPT_LIMITS,
    ...overrides,
  };
}

describe('captureOutput', () => {
  it('keeps everything when it fits', () => {
    expect(captureOutput('hello\n', 10)).toEqual({
      head: 'hello\n',
      tail: '',
      totalBytes: 6,
      omittedBytes: 0,
    });
    expect(captureOutput('', 10)).toEqual({ head: '', tail: '', totalBytes: 0, omittedBytes: 0 });
  });

  it('keeps a head and a tail of at most the limit each, counting the rest, in UTF-8 bytes', () => {
    expect(captureOutput('abcdefghij', 4)).toEqual({
      head: 'abcd',
      tail: 'ghij',
      totalBytes: 10,
      omittedBytes: 2,
    });
    expect(captureOutput('abcdef', 4)).toEqual({
      head: 'abcd',
      tail: 'ef',
      totalBytes: 6,
      omittedBytes: 0,
    });
    // "é" is two bytes: 5 characters, 10 bytes; a cut inside a character shows U+FFFD.
    const accents = captureOutput('ééééé', 3);
    expect(accents).toMatchObject({ totalBytes: 10, omittedBytes: 4 });
    expect(accents.head).toBe('é\uFFFD');
    expect(accents.tail).toBe('\uFFFDé');
  });
});

describe('createScriptedRunner', () => {
  it('runs nothing, records each request, and answers a quiet clean exit by default', async () => {
    const runner = createScriptedRunner();
    const first = request();
    const result = await runner.run(first);
    expect(result).toEqual({
      exitCode: 0,
      signal: null,
      timedOut: false,
      outputLimited: false,
      durationMs: 0,
      stdout: { head: '', tail: '', totalBytes: 0, omittedBytes: 0 },
      stderr: { head: '', tail: '', totalBytes: 0, omittedBytes: 0 },
      sandbox: 'bubblewrap',
    });
    await runner.run(request({ args: ['b'] }));
    expect(runner.requests).toHaveLength(2);
    expect(runner.requests[0]).toBe(first);
    expect(runner.requests[1]?.args).toEqual(['b']);
    expect(runner.sandbox().available).toBe(true);
  });

  it("answers with the handler's outcome, captured within the request's limits", async () => {
    const runner = createScriptedRunner((run) => ({
      stdout: `${'x'.repeat(30)}${run.args.join(',')}`,
      stderr: 'warning\n',
      exitCode: 3,
      durationMs: 12,
    }));
    const result = await runner.run(
      request({ args: ['p', 'q'], limits: { ...DEFAULT_SCRIPT_LIMITS, maxCapturedBytes: 8 } }),
    );
    expect(result).toMatchObject({ exitCode: 3, signal: null, durationMs: 12, timedOut: false });
    expect(result.stdout).toEqual({
      head: 'xxxxxxxx',
      tail: 'xxxxxp,q',
      totalBytes: 33,
      omittedBytes: 17,
    });
    expect(result.stderr).toEqual(captureOutput('warning\n', 8));
  });

  it('reports a timeout or too much output as a kill, unless the handler says otherwise', async () => {
    const runner = createScriptedRunner((run) =>
      run.args[0] === 'slow' ? { timedOut: true } : { stdout: 'y'.repeat(101) },
    );
    const limits = { ...DEFAULT_SCRIPT_LIMITS, maxOutputBytes: 100 };
    expect(await runner.run(request({ args: ['slow'] }))).toMatchObject({
      timedOut: true,
      outputLimited: false,
      exitCode: null,
      signal: 'SIGKILL',
    });
    expect(await runner.run(request({ args: ['loud'], limits }))).toMatchObject({
      timedOut: false,
      outputLimited: true,
      exitCode: null,
      signal: 'SIGKILL',
    });
    const exact = createScriptedRunner(() => ({ stdout: 'y'.repeat(100), exitCode: 1 }));
    expect(await exact.run(request({ limits }))).toMatchObject({
      outputLimited: false,
      exitCode: 1,
    });
  });

  it('behaves as a machine without a sandbox when told so', async () => {
    const runner = createScriptedRunner(() => ({ stdout: 'ran\n' }), {
      unavailable: 'bubblewrap (bwrap) is not installed',
    });
    expect(runner.sandbox()).toEqual({
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
    });
    await expect(runner.run(request())).rejects.toMatchObject({
      code: 'SANDBOX_UNAVAILABLE',
      message: 'Cannot run scripts in a sandbox: bubblewrap (bwrap) is not installed',
    });
    const loose = await runner.run(request({ allowUnsandboxed: true }));
    expect(loose).toMatchObject({ sandbox: 'none', exitCode: 0 });
    expect(loose.stdout.head).toBe('ran\n');
    expect(runner.requests).toHaveLength(2);
  });

  it('reports the isolation it is configured with, or the one the handler gives', async () => {
    const none = createScriptedRunner(undefined, { sandbox: 'none' });
    expect((await none.run(request())).sandbox).toBe('none');
    const mixed = createScriptedRunner((run) =>
      run.args[0] === 'bare' ? { sandbox: 'none' } : {},
    );
    expect((await mixed.run(request({ args: ['bare'] }))).sandbox).toBe('none');
    expect((await mixed.run(request())).sandbox).toBe('bubblewrap');
  });
});
