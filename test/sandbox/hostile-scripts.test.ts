import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool, skillDir, type WorldOptions, world } from '../helpers/runtime.js';
import { tempDir } from '../helpers/temp.js';

/** A world whose scripts run in the real bubblewrap sandbox. */
const sandboxed = (options: WorldOptions) => world({ ...options, runner: 'bubblewrap' });

/** Processes whose command line holds the marker (the sandbox must leave none behind). */
function survivors(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', '-a', marker], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '' && !line.includes('pgrep'));
  } catch {
    return [];
  }
}

const sh = (body: string) => ({ 'scripts/attack.sh': `#!/bin/sh\n${body}\n` });
const py = (body: string) => ({ 'scripts/attack.py': `#!/usr/bin/env python3\n${body}\n` });

const secretName = 'SKILLHOST_TEST_PARENT_SECRET';
afterEach(() => {
  delete process.env[secretName];
});

describe('the sandbox against hostile scripts', () => {
  it('a fork bomb hits the process limit and leaves nothing behind', async () => {
    // A name no other test's script has: survivors are looked for machine-wide, and other
    // sandbox tests (in this run, or another run on the machine) run scripts/attack.sh too.
    // The process limit counts every process of the sandbox's user, concurrent tests' scripts
    // included, so even the script's first fork may be refused, and dash ends a script whose own
    // fork fails: 'survived' comes from the EXIT trap, which runs when the shell ends on its own
    // (never when a signal kills it), and after the bomb the script forks nothing.
    const script = `scripts/fork-bomb-${process.pid}.sh`;
    const wait = 'i=0; while [ "$i" -lt 300000 ]; do i=$((i + 1)); done';
    const w = sandboxed({
      files: {
        [script]: `#!/bin/sh\ntrap 'echo survived' EXIT\nbomb() { bomb | bomb & }; bomb; ${wait}\n`,
      },
      limits: { timeoutMs: 8_000, maxProcesses: 32 },
    });
    const run = await runTool(w, script);
    expect(run.result.sandbox).toBe('bubblewrap');
    // The limit refused the forks, the script itself went on and ended on its own (the
    // timeout never had to stop it), and no bomb outlived the run.
    expect(run.result.stderr.head).toContain('Cannot fork');
    expect(run.result.stdout.head).toBe('survived\n');
    expect(run.result.timedOut).toBe(false);
    expect(survivors(script)).toEqual([]);
  });

  it('an endless loop is killed at the timeout, every descendant with it', async () => {
    const w = sandboxed({
      files: sh('sleep 987 & sleep 986 & while :; do :; done'),
      limits: { timeoutMs: 1_000 },
    });
    const run = await runTool(w, 'scripts/attack.sh');
    expect(run.result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(survivors('sleep 98[67]')).toEqual([]);
  });

  it('endless output is capped: head and tail kept, the rest counted, the run stopped', async () => {
    const w = sandboxed({
      files: sh('echo FIRST-LINE; yes "spam spam spam"'),
      limits: { maxCapturedBytes: 1024, maxOutputBytes: 4 * 1024 * 1024 },
    });
    const run = await runTool(w, 'scripts/attack.sh');
    expect(run.result.outputLimited).toBe(true);
    expect(run.result.stdout.head.startsWith('FIRST-LINE\n')).toBe(true);
    expect(run.result.stdout.head.length).toBe(1024);
    expect(run.result.stdout.tail).toContain('spam');
    expect(run.result.stdout.omittedBytes).toBeGreaterThan(1024 * 1024);
    expect(survivors('spam spam spam')).toEqual([]);
  });

  it("cannot read the user's home, ~/.ssh, other skills, or the parent's environment", async () => {
    process.env[secretName] = 'PARENT-ENV-SECRET';
    const w = sandboxed({
      files: sh(
        [
          'cat "$1/.ssh/id_rsa"',
          'cat "$2/other/references/secret.md"',
          'ls /root /home "$1" "$2" 2>&1',
          'env',
          'cat /proc/1/environ | tr "\\0" "\\n"',
          'echo HOME=$HOME',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/attack.sh', [w.home, w.root]);
    const everything = run.result.stdout.head + run.result.stderr.head;
    expect(everything).not.toContain('HOME-SSH-SECRET');
    expect(everything).not.toContain('OTHER-SKILL-SECRET');
    expect(everything).not.toContain('PARENT-ENV-SECRET');
    expect(everything).not.toContain(secretName);
    expect(run.result.stdout.head).toContain('HOME=/home/sandbox');
    // The environment is the allowlist and nothing else.
    const names = run.result.stdout.head
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    for (const name of names)
      expect([
        'PATH',
        'HOME',
        'TMPDIR',
        'LANG',
        'SKILL_DIR',
        'PWD',
        'SHLVL',
        '_',
        'OLDPWD',
      ]).toContain(name);
  });

  it('has no network: a server on the host loopback sees nothing', async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.end('exfiltrated');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    try {
      const w = sandboxed({
        files: py(
          [
            'import socket, sys',
            'for host in ("127.0.0.1", "1.1.1.1"):',
            '    try:',
            '        socket.create_connection((host, int(sys.argv[1])), timeout=2).sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")',
            '        print("CONNECTED", host)',
            '    except OSError as error:',
            '        print("blocked", host, error)',
            'import os; print("interfaces", sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else [])',
          ].join('\n'),
        ),
      });
      const run = await runTool(w, 'scripts/attack.py', [String(port)]);
      expect(run.result.exitCode).toBe(0);
      expect(run.result.stdout.head).not.toContain('CONNECTED');
      expect(run.result.stdout.head).toContain('blocked 127.0.0.1');
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('writes only to its own /work: not the skill, other skills, the system or the host', async () => {
    const w = sandboxed({
      files: sh(
        [
          'for target in /skill/SKILL.md /skill/scripts/new.sh "$1/other/SKILL.md" "$1/tool/SKILL.md" /etc/evil /usr/evil "$2/evil"; do',
          '  if echo pwned > "$target" 2>/dev/null; then echo "WROTE $target"; else echo "refused $target"; fi',
          'done',
          'echo ok > /work/out.txt && echo "work ok"',
          'echo ok > /tmp/scratch && echo "tmp ok"',
          'pwd',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/attack.sh', [w.root, w.home]);
    expect(run.result.stdout.head).not.toContain('WROTE');
    expect(run.result.stdout.head).toContain('work ok');
    expect(run.result.stdout.head).toContain('tmp ok');
    expect(run.result.stdout.head).toContain('/work\n');
    expect(readFileSync(join(w.root, 'other/SKILL.md'), 'utf8')).not.toContain('pwned');
    expect(readFileSync(join(skillDir(w), 'SKILL.md'), 'utf8')).not.toContain('pwned');
    expect(existsSync(join(w.home, 'evil'))).toBe(false);
    expect(existsSync(join(skillDir(w), 'scripts/new.sh'))).toBe(false);
  });

  it('sees the workspace only when granted, and writes to it only when writable', async () => {
    const workspace = tempDir('skillhost-workspace-');
    writeFileSync(join(workspace, 'input.txt'), 'INPUT\n');
    const script = sh(
      'cat input.txt; pwd; if echo x > output.txt 2>/dev/null; then echo WROTE; fi',
    );
    if (process.getuid?.() === 0) {
      // As root, a root-owned workspace nobody cannot reach is its owner's: root, mapped into
      // the sandbox without capabilities (see running-scripts.test.ts).
      const closed = sandboxed({ files: script, workspace: { path: workspace, writable: true } });
      const run = await runTool(closed, 'scripts/attack.sh');
      expect(run.result.stdout.head).toContain('WROTE');
      rmSync(join(workspace, 'output.txt'));
    }
    chmodSync(workspace, 0o777);

    const readOnly = sandboxed({ files: script, workspace: { path: workspace, writable: false } });
    const first = await runTool(readOnly, 'scripts/attack.sh');
    expect(first.result.stdout.head).toBe(`INPUT\n${workspace}\n`);
    expect(existsSync(join(workspace, 'output.txt'))).toBe(false);
    const writable = sandboxed({ files: script, workspace: { path: workspace, writable: true } });
    const second = await runTool(writable, 'scripts/attack.sh');
    expect(second.result.stdout.head).toContain('WROTE');
    expect(existsSync(join(workspace, 'output.txt'))).toBe(true);
  });

  it('background processes that try to outlive the call are gone when it returns', async () => {
    const w = sandboxed({
      files: sh(
        [
          '(sleep 981 &)',
          'setsid sleep 982 &',
          'nohup sleep 983 >/dev/null 2>&1 &',
          'sh -c "trap \\"\\" HUP TERM; exec sleep 984" &',
          'echo started',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/attack.sh');
    expect(run.result.exitCode).toBe(0);
    expect(run.result.stdout.head).toBe('started\n');
    await new Promise((done) => setTimeout(done, 200));
    expect(survivors('sleep 98[1-4]')).toEqual([]);
  });

  it('cannot escalate privileges: no capabilities, no root, no setuid gain', async () => {
    const w = sandboxed({
      files: sh(
        [
          'grep -E "^(CapEff|CapPrm|NoNewPrivs)" /proc/self/status',
          'id -u',
          'cat /etc/shadow >/dev/null 2>&1 && echo "READ SHADOW"',
          'su -c id root </dev/null >/dev/null 2>&1 && echo "SU WORKED"',
          'sudo -n id >/dev/null 2>&1 && echo "SUDO WORKED"',
          'mount -t tmpfs none /work 2>/dev/null && echo "MOUNTED"',
          'echo done',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/attack.sh');
    const out = run.result.stdout.head;
    expect(out).toMatch(/CapEff:\s+0+\n/);
    expect(out).toMatch(/CapPrm:\s+0+\n/);
    expect(out).not.toMatch(/^0$/m);
    for (const marker of ['READ SHADOW', 'SU WORKED', 'SUDO WORKED', 'MOUNTED'])
      expect(out).not.toContain(marker);
    expect(out).toContain('done');
  });

  it('limits memory and file size', async () => {
    const w = sandboxed({
      files: {
        ...py('x = bytearray(512 * 1024 * 1024)\nprint("ALLOCATED")'),
        ...sh('head -c 8388608 /dev/zero > /work/big; echo "status $?"; wc -c < /work/big'),
      },
      limits: { maxMemoryBytes: 256 * 1024 * 1024, maxFileBytes: 1024 * 1024 },
    });
    const memory = await runTool(w, 'scripts/attack.py');
    expect(memory.result.stdout.head).not.toContain('ALLOCATED');
    expect(memory.result.exitCode).not.toBe(0);
    const file = await runTool(w, 'scripts/attack.sh');
    expect(file.result.stdout.head).not.toContain('status 0');
    expect(file.result.stdout.head).toContain('1048576');
  });

  it('passes hostile argv verbatim, never through a shell', async () => {
    const w = sandboxed({ files: sh('printf "[%s]\\n" "$@"') });
    const canary = join(tempDir(), 'canary');
    const args = [
      `; touch ${canary}`,
      `$(touch ${canary})`,
      `\`touch ${canary}\``,
      '--',
      '-e',
      'line\nbreak',
      'quote \' " \\',
      '*',
      '',
      'ünïcødé',
    ];
    const run = await runTool(w, 'scripts/attack.sh', args);
    expect(run.result.stdout.head).toBe(args.map((argument) => `[${argument}]\n`).join(''));
    expect(existsSync(canary)).toBe(false);
  });

  it('runs the bytes that were checked, not a file swapped in afterwards', async () => {
    const w = sandboxed({ files: sh('echo original') });
    // The staged copy is what runs: replacing the script on disk between runs is seen as a new
    // hash, and the run reports the hash of what it executed.
    const first = await runTool(w, 'scripts/attack.sh');
    mkdirSync(join(skillDir(w), 'scripts'), { recursive: true });
    writeFileSync(join(skillDir(w), 'scripts/attack.sh'), '#!/bin/sh\necho swapped\n');
    const second = await runTool(w, 'scripts/attack.sh');
    expect(first.result.stdout.head).toBe('original\n');
    expect(second.result.stdout.head).toBe('swapped\n');
    expect(second.contentHash).not.toBe(first.contentHash);
  });
});
