import { describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../../src/deps.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../src/runtime/script-run.js';
import { emulateShell } from '../helpers/shell.js';

function play(
  script: string,
  args: readonly string[] = [],
  overrides: Partial<ScriptRunRequest> = {},
) {
  return emulateShell({
    skillDirectory: '/skills/demo',
    scriptPath: 'scripts/run.sh',
    scriptBytes: new TextEncoder().encode(script),
    interpreter: 'sh',
    args,
    limits: DEFAULT_SCRIPT_LIMITS,
    ...overrides,
  });
}

// The same scripts run in the real shell in test/sandbox/shell-emulator.test.ts.
describe('the shell emulator of the unit suite', () => {
  it('echoes words with quotes and parameters expanded', () => {
    expect(play('#!/bin/sh\necho "hello $1"\n', ['world'])).toEqual({
      stdout: 'hello world\n',
      stderr: '',
    });
    expect(play('echo "$# arguments: $*"\n', ['a b', 'c']).stdout).toBe('2 arguments: a b c\n');
    expect(play("echo 'single $1'  plain\\ word $@\n", ['x', 'y']).stdout).toBe(
      'single $1 plain word x y\n',
    );
    expect(play('echo $1 end\n').stdout).toBe('end\n');
    expect(play('echo "$1" end\n').stdout).toBe(' end\n');
  });

  it('writes to stderr, exits with a computed code, and stops at exit', () => {
    const script =
      '#!/bin/sh\necho "hello $1"\necho "to stderr" >&2\nexit $(($2 + 0))\necho after\n';
    expect(play(script, ['you', '7'])).toEqual({
      stdout: 'hello you\n',
      stderr: 'to stderr\n',
      exitCode: 7,
    });
    expect(play(script, ['you'])).toMatchObject({ exitCode: 0 });
    expect(play('exit\n')).toMatchObject({ exitCode: 0 });
  });

  it('times out a sleep that reaches the limit, and skips a shorter one', () => {
    const limits = { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 500 };
    expect(play('echo a\nsleep 30\necho b\n', [], { limits })).toEqual({
      stdout: 'a\n',
      stderr: '',
      timedOut: true,
    });
    expect(play('sleep 0.1\necho b\n', [], { limits }).stdout).toBe('b\n');
  });

  it('refuses what it cannot play, so that a fixture never passes by accident', () => {
    expect(() => play('cat /etc/passwd\n')).toThrow('cannot run this line: cat /etc/passwd');
    expect(() => play('echo "open\n')).toThrow('Unclosed quote');
    expect(() => play('exit $(($1 * 2))\n', ['3'])).toThrow('cannot compute');
    expect(() => play('print(1)\n', [], { interpreter: 'python3' })).toThrow('python3');
  });
});
