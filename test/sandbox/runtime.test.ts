import { describe, expect, it } from 'vitest';
import { runTool, world } from '../helpers/runtime.js';

const HELLO = { 'scripts/hello.sh': '#!/bin/sh\necho "hello $1"\n' };

describe('the runtime with the real sandbox runner', () => {
  it('runs an approved script in bubblewrap and records it', async () => {
    const w = world({ files: HELLO, runner: 'bubblewrap' });
    const run = await runTool(w, 'scripts/hello.sh', ['world']);
    expect(run.result).toMatchObject({
      exitCode: 0,
      signal: null,
      sandbox: 'bubblewrap',
      timedOut: false,
      outputLimited: false,
    });
    expect(run.result.stdout).toEqual({
      head: 'hello world\n',
      tail: '',
      totalBytes: 12,
      omittedBytes: 0,
    });
    await w.runtime.close();
    const ran = w.records().find((record) => record.event === 'script-run');
    expect(ran?.tool_or_script_calls[0]).toMatchObject({
      script: 'scripts/hello.sh',
      exit_code: 0,
      sandbox: 'bubblewrap',
      stdout_bytes: 12,
    });
    expect(w.intact()).toBe(true);
  });
});
