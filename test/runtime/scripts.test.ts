import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT_LIMITS } from '../../src/runtime/script-run.js';
import { createScriptedRunner } from '../../src/testing/index.js';
import { runTool, skillDir, world } from '../helpers/runtime.js';
import { shellRunner } from '../helpers/shell.js';

const HELLO = { 'scripts/hello.sh': '#!/bin/sh\necho "hello $1"\n' };

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

describe('running scripts through the runtime', () => {
  it('runs an approved script through the runner and records every step', async () => {
    const w = world({ files: HELLO });
    const run = await runTool(w, 'scripts/hello.sh', ['world']);
    expect(run.result).toMatchObject({ exitCode: 0, sandbox: 'bubblewrap', timedOut: false });
    expect(run.result.stdout.head).toBe('hello world\n');
    expect(run.approvedBy).toBe('once');
    // The runner was handed the checked bytes, the arguments, the interpreter and the limits.
    expect(w.scripted?.requests).toHaveLength(1);
    const request = w.scripted?.requests[0];
    expect(new TextDecoder().decode(request?.scriptBytes)).toBe(HELLO['scripts/hello.sh']);
    expect(request).toMatchObject({
      skillDirectory: skillDir(w),
      scriptPath: 'scripts/hello.sh',
      interpreter: 'sh',
      args: ['world'],
      limits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 20_000 },
    });
    expect(request).not.toHaveProperty('allowUnsandboxed');
    await w.runtime.close();
    const events = w.records().map((record) => record.event);
    expect(events).toEqual([
      'session-start',
      'skill-discover',
      'skill-activate',
      'permission-decide',
      'permission-approve',
      'script-run',
      'session-end',
    ]);
    const ran = w.records().find((record) => record.event === 'script-run');
    expect(ran?.content_hash).toBe(run.contentHash);
    expect(ran?.tool_or_script_calls[0]).toMatchObject({
      script: 'scripts/hello.sh',
      args: ['world'],
      exit_code: 0,
      sandbox: 'bubblewrap',
      approved_by: 'once',
    });
    expect(w.intact()).toBe(true);
  });

  it('records a run stopped by the timeout or by too much output as the runner reports it', async () => {
    const w = world({
      files: { 'scripts/slow.sh': '#!/bin/sh\necho started\nsleep 30\n' },
      limits: { timeoutMs: 500 },
    });
    const slow = await runTool(w, 'scripts/slow.sh');
    expect(slow.result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(slow.result.stdout.head).toBe('started\n');
    const loud = world({
      runner: createScriptedRunner(() => ({ stdout: 'spam\n'.repeat(100) })),
      files: HELLO,
      limits: { maxCapturedBytes: 10, maxOutputBytes: 200 },
    });
    const spam = await runTool(loud, 'scripts/hello.sh');
    expect(spam.result).toMatchObject({ outputLimited: true, exitCode: null });
    expect(spam.result.stdout).toEqual({
      head: 'spam\nspam\n',
      tail: 'spam\nspam\n',
      totalBytes: 500,
      omittedBytes: 480,
    });
    const calls = (v: typeof w) =>
      v.records().find((record) => record.event === 'script-run')?.tool_or_script_calls[0];
    expect(calls(w)).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGKILL' });
    expect(calls(loud)).toMatchObject({ output_limited: true, stdout_bytes: 500 });
  });

  it("tells the runner the skill's trust, and reports the files it left out", async () => {
    const notStaged = {
      count: 12,
      files: [
        { path: 'references/linked.md', reason: 'hard-link' as const },
        { path: 'assets/pointer', reason: 'symlink' as const },
      ],
    };
    for (const trust of ['trusted', 'untrusted'] as const) {
      const w = world({ trust, files: HELLO, runner: createScriptedRunner(() => ({ notStaged })) });
      const run = await runTool(w, 'scripts/hello.sh');
      expect(w.scripted?.requests[0]?.trusted).toBe(trust === 'trusted');
      expect(run.result.notStaged).toEqual(notStaged);
      const ran = w.records().find((record) => record.event === 'script-run');
      expect(ran?.details).toEqual({
        not_staged: {
          count: 12,
          files: ['references/linked.md (hard-link)', 'assets/pointer (symlink)'],
        },
      });
    }
    // The model is told, so that a missing file is not a mystery.
    const w = world({
      files: HELLO,
      allowedTools: 'Bash(sh scripts/hello.sh:*)',
      runner: createScriptedRunner(() => ({ notStaged })),
    });
    await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    const result = await w.runtime.callTool('skillhost_run', {
      name: 'tool',
      script: 'scripts/hello.sh',
    });
    expect(result.text).toContain(
      '12 skill files were not staged: references/linked.md (hard-link), assets/pointer (symlink), and 10 more]',
    );
    expect(result.data).toMatchObject({ notStaged });
  });

  it('turns a run stopped at the write limit into RESOURCE_LIMIT for the model, and records it', async () => {
    const w = world({
      files: HELLO,
      allowedTools: 'Bash(sh scripts/hello.sh:*)',
      runner: createScriptedRunner(() => ({ resourceLimit: 'write', writtenBytes: 1234 })),
    });
    await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    const result = await w.runtime.callTool('skillhost_run', {
      name: 'tool',
      script: 'scripts/hello.sh',
    });
    expect(result).toMatchObject({
      isError: true,
      code: 'RESOURCE_LIMIT',
      data: { limit: 'write', writtenBytes: 1234, signal: 'SIGKILL' },
    });
    expect(result.text).toContain('stopped at the write limit');
    const ran = w.records().find((record) => record.event === 'script-run');
    expect(ran?.tool_or_script_calls[0]).toMatchObject({
      resource_limit: 'write',
      written_bytes: 1234,
    });
  });

  it('refuses without confirmation when not interactive, and on "no"', async () => {
    const quiet = world({ files: HELLO });
    expect(await codeOf(runTool(quiet, 'scripts/hello.sh', [], false))).toBe('PERMISSION_REQUIRED');
    const refusing = world({ files: HELLO, answers: ['no'] });
    expect(await codeOf(runTool(refusing, 'scripts/hello.sh', [], false))).toBe(
      'PERMISSION_DENIED',
    );
    expect(refusing.questions).toHaveLength(1);
    expect(refusing.records().some((record) => record.event === 'script-run')).toBe(false);
  });

  it('a trusted skill may pre-approve its script; the grant ends with the turn', async () => {
    const w = world({ files: HELLO, allowedTools: 'Bash(sh scripts/hello.sh:*)' });
    const first = await runTool(w, 'scripts/hello.sh', ['a'], false);
    expect(first.approvedBy).toBe('policy');
    w.runtime.endTurn();
    // Still active in the session, but its grant has ended.
    expect(await codeOf(w.runtime.runScript('tool', 'scripts/hello.sh', ['a']))).toBe(
      'PERMISSION_REQUIRED',
    );
  });

  it('an untrusted skill never pre-approves its own script', async () => {
    const w = world({
      files: HELLO,
      trust: 'untrusted',
      allowedTools: 'Bash(sh scripts/hello.sh:*) run_skill_script',
    });
    expect(await codeOf(runTool(w, 'scripts/hello.sh', [], false))).toBe('PERMISSION_REQUIRED');
  });

  it('"always" approves this exact content; a changed script is asked about again', async () => {
    const w = world({ files: HELLO, answers: ['always', 'yes'] });
    expect((await runTool(w, 'scripts/hello.sh', [], false)).approvedBy).toBe('always');
    expect((await runTool(w, 'scripts/hello.sh', [], false)).approvedBy).toBe('policy');
    expect(w.questions).toHaveLength(1);
    writeFileSync(join(skillDir(w), 'scripts/hello.sh'), '#!/bin/sh\necho changed\n');
    const changed = await runTool(w, 'scripts/hello.sh', [], false);
    expect(changed.approvedBy).toBe('once');
    expect(changed.result.stdout.head).toBe('changed\n');
    expect(w.questions).toHaveLength(2);
    const hashes = w.questions.map((question) =>
      question.kind === 'tool' ? undefined : question.contentHash,
    );
    expect(hashes[1]).not.toBe(hashes[0]);
  });

  it('host deny rules and a host without the script tool refuse the run', async () => {
    const denied = world({
      files: HELLO,
      options: {
        policy: { tools: ['activate_skill', 'run_skill_script'], deny: ['run_skill_script'] },
      },
    });
    expect(await codeOf(runTool(denied, 'scripts/hello.sh'))).toBe('PERMISSION_DENIED');
    const lacking = world({
      files: HELLO,
      options: { policy: { tools: ['Read', 'activate_skill'] } },
    });
    expect(await codeOf(runTool(lacking, 'scripts/hello.sh'))).toBe('PERMISSION_DENIED');
    const rule = (w: typeof denied) =>
      w.records().find((record) => record.event === 'permission-decide')?.details.rule;
    expect(rule(denied)).toBe('deny-rule');
    expect(rule(lacking)).toBe('ceiling');
  });

  it('shadow mode runs, and records what would have been decided', async () => {
    const w = world({
      files: HELLO,
      options: { policy: { tools: ['activate_skill', 'run_skill_script'], shadow: true } },
    });
    const run = await runTool(w, 'scripts/hello.sh', [], false);
    expect(run.approvedBy).toBe('shadow');
    const decided = w.records().find((record) => record.event === 'permission-decide');
    expect(decided?.tool_or_script_calls[0]).toMatchObject({ decision: 'ask' });
    expect(decided?.details).toMatchObject({ effect: 'allow' });
  });

  it("only a regular text file under the active skill's scripts/ runs", async () => {
    const w = world({
      files: {
        ...HELLO,
        'references/notes.sh': 'echo not a script\n',
        'scripts/binary.sh': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0xff]),
        'scripts/tool.rb': 'puts 1\n',
        'scripts/perl.sh': '#!/usr/bin/perl\nprint 1;\n',
      },
    });
    const dir = skillDir(w);
    symlinkSync('/bin/sh', join(dir, 'scripts/shell.sh'));
    symlinkSync('../references/notes.sh', join(dir, 'scripts/notes.sh'));
    symlinkSync(join(w.root, 'other/references/secret.md'), join(dir, 'scripts/other.sh'));
    execFileSync('mkfifo', [join(dir, 'scripts/fifo.sh')]);
    expect(
      await codeOf(w.runtime.runScript('tool', 'scripts/hello.sh', [], { approveOnce: true })),
    ).toBe('SKILL_NOT_ACTIVE');
    const cases: Array<[string, string[], string]> = [
      ['references/notes.sh', [], 'SCRIPT_OUTSIDE_SCRIPTS'],
      ['scripts/../references/notes.sh', [], 'RESOURCE_PATH_INVALID'],
      ['/bin/sh', [], 'RESOURCE_PATH_INVALID'],
      ['scripts/missing.sh', [], 'SCRIPT_NOT_FOUND'],
      ['scripts/binary.sh', [], 'SCRIPT_NOT_TEXT'],
      ['scripts/tool.rb', [], 'SCRIPT_INTERPRETER_UNKNOWN'],
      ['scripts/perl.sh', [], 'SCRIPT_INTERPRETER_UNKNOWN'],
      ['scripts/shell.sh', [], 'RESOURCE_OUTSIDE_SKILL'],
      ['scripts/notes.sh', [], 'SCRIPT_OUTSIDE_SCRIPTS'],
      ['scripts/other.sh', [], 'RESOURCE_OUTSIDE_SKILL'],
      ['scripts/fifo.sh', [], 'RESOURCE_NOT_REGULAR'],
      ['scripts/hello.sh', ['a\u0000b'], 'SCRIPT_ARGUMENT_INVALID'],
    ];
    for (const [script, args, code] of cases) {
      expect(await codeOf(runTool(w, script, args)), script).toBe(code);
    }
    const failures = w.records().filter((record) => record.event === 'script-run');
    expect(failures).toHaveLength(cases.length + 1);
    expect(failures.every((record) => record.error !== null)).toBe(true);
  });

  it('refuses a hard-linked script of an untrusted skill', async () => {
    const w = world({ files: HELLO, trust: 'untrusted' });
    const outside = join(w.home, 'planted.sh');
    writeFileSync(outside, '#!/bin/sh\necho planted\n');
    chmodSync(outside, 0o755);
    linkSync(outside, join(skillDir(w), 'scripts/planted.sh'));
    expect(await codeOf(runTool(w, 'scripts/planted.sh'))).toBe('RESOURCE_HARD_LINK');
  });

  it('fails closed when the audit log cannot be written', async () => {
    const w = world({ files: HELLO });
    w.runtime.activate('tool', { triggeredBy: 'user' });
    w.sink.fail('disk full');
    expect(
      await codeOf(w.runtime.runScript('tool', 'scripts/hello.sh', [], { approveOnce: true })),
    ).toBe('AUDIT_UNAVAILABLE');
    // Nothing ran: the decision could not be recorded, so the runner was never asked.
    expect(w.scripted?.requests).toEqual([]);
    expect(() => w.runtime.activate('other', { triggeredBy: 'user' })).toThrow(
      expect.objectContaining({ code: 'AUDIT_UNAVAILABLE' }),
    );
    expect(() => w.runtime.readResource('other', 'references/secret.md')).toThrow(
      expect.objectContaining({ code: 'AUDIT_UNAVAILABLE' }),
    );
  });

  it('without a sandbox it refuses, unless unsandboxed runs are allowed (and logged)', async () => {
    const reason = 'bubblewrap (bwrap) is not installed';
    const refused = world({ files: HELLO, runner: shellRunner({ unavailable: reason }) });
    expect(await codeOf(runTool(refused, 'scripts/hello.sh'))).toBe('SANDBOX_UNAVAILABLE');
    const failed = refused.records().find((record) => record.event === 'script-run');
    expect(failed?.error).toEqual({
      code: 'SANDBOX_UNAVAILABLE',
      message: `Cannot run scripts in a sandbox: ${reason}`,
    });
    const loose = world({
      files: HELLO,
      runner: shellRunner({ unavailable: reason }),
      allowUnsandboxed: true,
    });
    const run = await runTool(loose, 'scripts/hello.sh', ['bare']);
    expect(loose.scripted?.requests[0]?.allowUnsandboxed).toBe(true);
    expect(run.result).toMatchObject({ sandbox: 'none', exitCode: 0 });
    expect(run.result.stdout.head).toBe('hello bare\n');
    const ran = loose.records().find((record) => record.event === 'script-run');
    expect(ran?.tool_or_script_calls[0]).toMatchObject({ sandbox: 'none' });
    expect(ran?.details).toMatchObject({
      warning: expect.stringContaining('without an OS sandbox'),
    });
  });
});

describe('the runtime gates its own capabilities through the policy', () => {
  it('allows activation and reads by default, and records the decision', () => {
    const w = world({ files: { 'references/a.md': '# A\n' } });
    w.runtime.activate('tool', { triggeredBy: 'model' });
    w.runtime.readResource('tool', 'references/a.md');
    const activated = w.records().find((record) => record.event === 'skill-activate');
    expect(activated?.details).toMatchObject({
      policy: { decision: 'allow', rule: 'host-default' },
    });
    const read = w.records().find((record) => record.event === 'resource-read');
    expect(read?.details).toMatchObject({ policy: { decision: 'allow' } });
  });

  it('refuses what the host denies or lacks, and records the refusal', () => {
    const denied = world({
      files: { 'references/a.md': '# A\n', 'references/.env': 'KEY=1\n' },
      options: {
        policy: {
          tools: ['activate_skill', 'read_skill_resource'],
          deny: ['read_skill_resource(**/.env)', 'activate_skill(other)'],
        },
      },
    });
    denied.runtime.activate('tool', { triggeredBy: 'model' });
    expect(denied.runtime.readResource('tool', 'references/a.md').path).toBe('references/a.md');
    expect(() => denied.runtime.readResource('tool', 'references/.env')).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
    expect(() => denied.runtime.activate('other', { triggeredBy: 'model' })).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
    const errors = denied
      .records()
      .filter((record) => record.error !== null)
      .map((record) => [record.event, record.error?.code]);
    expect(errors).toEqual([
      ['resource-read', 'PERMISSION_DENIED'],
      ['skill-activate', 'PERMISSION_DENIED'],
    ]);
    const lacking = world({ options: { policy: { tools: ['Read'] } } });
    expect(() => lacking.runtime.activate('tool', { triggeredBy: 'model' })).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
    const asking = world({
      options: { policy: { tools: ['activate_skill'], defaults: { activate_skill: 'ask' } } },
    });
    expect(() => asking.runtime.activate('tool', { triggeredBy: 'model' })).toThrow(
      expect.objectContaining({ code: 'PERMISSION_REQUIRED' }),
    );
  });
});
