import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, type WorldOptions, world } from '../helpers/runtime.js';
import { tempDir } from '../helpers/temp.js';

// The sum of what a script writes (its /tmp, /work, home, /dev/shm and a writable workspace) is
// capped per run; each case is a script that tries to write more.

const MiB = 1024 * 1024;
const sandboxed = (options: WorldOptions) => world({ ...options, runner: 'bubblewrap' });
const sh = (body: string) => ({ 'scripts/fill.sh': `#!/bin/sh\n${body}\n` });
const py = (body: string) => ({ 'scripts/fill.py': `#!/usr/bin/env python3\n${body}\n` });

/** A workspace the script's user can write to, and the bytes it holds (blocks, as du counts). */
function openWorkspace(): string {
  const path = tempDir('skillhost-workspace-');
  chmodSync(path, 0o777);
  return path;
}
function diskUsage(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(folder, entry.name);
    return sum + (entry.isDirectory() ? diskUsage(path) : statSync(path).blocks * 512);
  }, 0);
}

describe('the write budget', () => {
  it('stops a flood of /tmp at the default 512 MiB, and says which limit', async () => {
    // Files of 60 MiB (the largest file is 64 MiB): no single limit but the sum stops them.
    const w = sandboxed({
      files: sh(
        [
          'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do head -c 60M /dev/zero > /tmp/f$i || break; done',
          'du -ks /tmp',
          'sleep 5',
          'echo SURVIVED',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.resourceLimit).toBe('write');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
    expect(run.result.writtenBytes).toBeGreaterThan(512 * MiB);
    // The tmpfs refuses what goes past the budget, whether or not the watcher was in time.
    expect(run.result.writtenBytes).toBeLessThanOrEqual(512 * MiB + 4096);
    const ran = w.records().find((record) => record.event === 'script-run');
    expect(ran?.tool_or_script_calls[0]).toMatchObject({ resource_limit: 'write' });
  });

  it('counts /tmp, /work, the home and /dev/shm together, and kills the run past the sum', async () => {
    const w = sandboxed({
      files: sh(
        [
          'for place in /tmp /work "$HOME" /dev/shm; do',
          // 2.5 MiB each: the first three stay under the 8 MiB budget, the fourth passes it.
          '  head -c 2560K /dev/zero > "$place/chunk" && echo "wrote $place"',
          'done',
          'sleep 5',
          'echo SURVIVED',
        ].join('\n'),
      ),
      limits: { maxWriteBytes: 8 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.resourceLimit).toBe('write');
    expect(run.result.signal).toBe('SIGKILL');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
    // The first three hold 7.5 MiB: only what went to /dev/shm takes the sum past 8 MiB. The
    // kill may come mid-write, before the script could say it wrote there.
    expect(run.result.stdout.head).toMatch(/wrote \/home\//);
    expect(run.result.writtenBytes).toBeGreaterThan(8 * MiB);
  });

  it('stops a slow trickle of many small files too', async () => {
    const w = sandboxed({
      files: sh(
        [
          'i=0',
          'while [ $i -lt 100000 ]; do head -c 65536 /dev/zero > /work/f$i || exit 3; i=$((i+1)); done',
          'echo SURVIVED',
        ].join('\n'),
      ),
      limits: { maxWriteBytes: 4 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.resourceLimit).toBe('write');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
  });

  it('reports the limit even when the script stops by itself at the refusal', async () => {
    const w = sandboxed({
      files: sh('head -c 5M /dev/zero > /tmp/x; echo "status $?"'),
      limits: { maxWriteBytes: 1 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.stdout.head).toBe('status 1\n');
    expect(run.result.stderr.head).toContain('No space left on device');
    expect(run.result).toMatchObject({ exitCode: 0, resourceLimit: 'write' });
  });

  it('nothing else can be written: the root, /dev and the system folders are read-only', async () => {
    const w = sandboxed({
      files: sh(
        [
          'for target in /evil /home/evil /dev/evil /etc/evil /usr/evil /proc/evil /skill/evil; do',
          '  if echo x > "$target" 2>/dev/null; then echo "WROTE $target"; else echo "refused $target"; fi',
          'done',
          'mkdir /var 2>/dev/null && echo "MADE /var"',
          'echo x > /dev/null && echo "null ok"',
        ].join('\n'),
      ),
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.stdout.head).not.toMatch(/WROTE|MADE/);
    expect(run.result.stdout.head).toContain('refused /dev/evil');
    expect(run.result.stdout.head).toContain('null ok');
  });

  it("caps the writable workspace in the same sum, and the host's disk sees no more than that", async () => {
    const workspace = openWorkspace();
    const w = sandboxed({
      files: sh(
        [
          'head -c 2M /dev/zero > /tmp/scratch',
          'i=0',
          'while [ $i -lt 400 ]; do head -c 1M /dev/urandom > "out$i.bin" || exit 3; i=$((i+1)); done',
          'echo SURVIVED',
        ].join('\n'),
      ),
      workspace: { path: workspace, writable: true },
      limits: { maxWriteBytes: 16 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.resourceLimit).toBe('write');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
    // Stopped within a watch interval of the budget: far from the 400 MiB it tried.
    const written = diskUsage(workspace);
    expect(written).toBeGreaterThan(8 * MiB);
    expect(written).toBeLessThan(64 * MiB);
  });

  it('counts writes through several processes, and writes that are deleted again', async () => {
    const workspace = openWorkspace();
    const w = sandboxed({
      files: sh(
        [
          'i=0',
          'while [ $i -lt 200 ]; do',
          '  (head -c 1M /dev/urandom > "tmp$i" && sync "tmp$i" && rm "tmp$i") || exit 3',
          '  i=$((i+1))',
          'done',
          'echo SURVIVED',
        ].join('\n'),
      ),
      workspace: { path: workspace, writable: true },
      limits: { maxWriteBytes: 16 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result.resourceLimit).toBe('write');
    expect(run.result.stdout.head).not.toContain('SURVIVED');
  });

  it('gives no way around the count: fallocate, memfd, System V shared memory, io_uring', async () => {
    const workspace = openWorkspace();
    const w = sandboxed({
      files: py(
        [
          'import ctypes, errno, os',
          'libc = ctypes.CDLL(None, use_errno=True)',
          'def attempt(name, call):',
          '    try:',
          '        result = call()',
          '        print(name, "WORKED", result)',
          '    except OSError as error:',
          '        print(name, "refused", errno.errorcode.get(error.errno))',
          'def checked(result):',
          '    if result < 0:',
          '        raise OSError(ctypes.get_errno(), "failed")',
          '    return result',
          'for place in ("/tmp/space", "space"):',
          '    fd = os.open(place, os.O_RDWR | os.O_CREAT)',
          '    # FALLOC_FL_KEEP_SIZE: blocks without a size, and without a write',
          '    attempt("fallocate " + place, lambda: checked(libc.fallocate(fd, 1, ctypes.c_long(0), ctypes.c_long(256 << 20))))',
          '    attempt("posix_fallocate " + place, lambda: os.posix_fallocate(fd, 0, 1 << 20))',
          'attempt("memfd", lambda: os.memfd_create("x"))',
          'attempt("shmget", lambda: checked(libc.shmget(0, 256 << 20, 0o1600)))',
          'attempt("io_uring", lambda: checked(libc.syscall(425, 8, ctypes.create_string_buffer(120))))',
        ].join('\n'),
      ),
      workspace: { path: workspace, writable: true },
      limits: { maxWriteBytes: 64 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.py');
    const out = run.result.stdout.head;
    expect(run.result.stderr.head).toBe('');
    expect(out).toContain('fallocate /tmp/space refused ENOTSUP');
    expect(out).toContain('fallocate space refused ENOTSUP');
    expect(out).toContain('memfd refused ENOSYS');
    expect(out).toContain('shmget refused ENOSYS');
    expect(out).toContain('io_uring refused ENOSYS');
    // posix_fallocate falls back to writing, which is counted like any write.
    expect(out).toContain('posix_fallocate space WORKED');
    expect(diskUsage(workspace)).toBeLessThanOrEqual(2 * MiB);
    expect(run.result.writtenBytes).toBeGreaterThanOrEqual(1 * MiB);
  });

  it('leaves ordinary scripts alone: a run within the budget is not flagged', async () => {
    const workspace = openWorkspace();
    const w = sandboxed({
      files: sh(
        'head -c 1M /dev/zero > /tmp/a; head -c 1M /dev/zero > /work/b; head -c 1M /dev/zero > c; echo ok',
      ),
      workspace: { path: workspace, writable: true },
      limits: { maxWriteBytes: 8 * MiB },
    });
    const run = await runTool(w, 'scripts/fill.sh');
    expect(run.result).toMatchObject({ exitCode: 0 });
    expect(run.result.resourceLimit).toBeUndefined();
    expect(run.result.stdout.head).toBe('ok\n');
  });
});
