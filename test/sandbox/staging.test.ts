import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../../src/deps.js';
import { createSandboxRunner } from '../../src/node/sandbox.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../src/runtime/script-run.js';
import { runTool, skillDir, type WorldOptions, world } from '../helpers/runtime.js';
import { tempDir } from '../helpers/temp.js';

// Staging copies the skill into the sandbox, as root when skillhost runs as root: it must never
// make a file more readable than it was. Each case builds its hostile skill at test time.

const asRoot = process.getuid?.() === 0;
const sandboxed = (options: WorldOptions) => world({ ...options, runner: 'bubblewrap' });
const sh = (body: string) => ({ 'scripts/look.sh': `#!/bin/sh\n${body}\n` });

/** A root-only secret outside any skill, on the same file system (so it can be hard-linked). */
function rootSecret(text = 'ROOT-ONLY-SECRET\n'): string {
  const path = join(tempDir('skillhost-secret-'), 'secret');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? [path, ...filesUnder(root, path)] : [path];
  });
}

describe('staging never makes a file more readable than it was', () => {
  it.runIf(asRoot)(
    'leaves a hard link to a root-only file out of an untrusted skill, and says so',
    async () => {
      const w = sandboxed({
        trust: 'untrusted',
        files: sh('cat /skill/references/notes.txt; ls /skill/references; echo done'),
      });
      mkdirSync(join(skillDir(w), 'references'));
      linkSync(rootSecret(), join(skillDir(w), 'references/notes.txt'));
      const run = await runTool(w, 'scripts/look.sh');
      const everything = run.result.stdout.head + run.result.stderr.head;
      expect(everything).not.toContain('ROOT-ONLY-SECRET');
      expect(run.result.stdout.head).toContain('done');
      expect(run.result.notStaged).toEqual({
        count: 1,
        files: [{ path: 'references/notes.txt', reason: 'hard-link' }],
      });
      const record = w.records().find((entry) => entry.event === 'script-run');
      expect(record?.details).toMatchObject({
        not_staged: { count: 1, files: ['references/notes.txt (hard-link)'] },
      });
      // The same file is refused by a resource read.
      expect(() => w.runtime.readResource('tool', 'references/notes.txt')).toThrow(
        expect.objectContaining({ code: 'RESOURCE_HARD_LINK' }),
      );
    },
  );

  it.runIf(asRoot)(
    "stages a trusted skill's doubtful files with their owner and mode: still unreadable",
    async () => {
      const w = sandboxed({
        trust: 'trusted',
        files: sh(
          [
            'cat /skill/references/linked.txt /skill/references/private.txt /skill/private/open.txt',
            'ls -ln /skill/references',
            'echo done',
          ].join('\n'),
        ),
      });
      const skill = skillDir(w);
      mkdirSync(join(skill, 'references'));
      linkSync(rootSecret('LINKED-SECRET\n'), join(skill, 'references/linked.txt'));
      writeFileSync(join(skill, 'references/private.txt'), 'PRIVATE-SECRET\n', { mode: 0o600 });
      mkdirSync(join(skill, 'private'), { mode: 0o700 });
      writeFileSync(join(skill, 'private/open.txt'), 'BEHIND-A-CLOSED-FOLDER\n', { mode: 0o644 });
      const run = await runTool(w, 'scripts/look.sh');
      const everything = run.result.stdout.head + run.result.stderr.head;
      for (const secret of ['LINKED-SECRET', 'PRIVATE-SECRET', 'BEHIND-A-CLOSED-FOLDER'])
        expect(everything).not.toContain(secret);
      expect(run.result.stderr.head).toContain('Permission denied');
      // They are there, as the originals are: owned by root, without read for others.
      expect(run.result.stdout.head).toMatch(/-r-------- +1 +\d+ +\d+ +\d+ .* private\.txt/);
      expect(run.result.notStaged).toBeUndefined();
    },
  );

  it.runIf(asRoot)(
    "leaves out an untrusted skill's closed folder, private file and file of another owner",
    async () => {
      const w = sandboxed({
        trust: 'untrusted',
        files: {
          ...sh('find /skill | sort; cat /skill/references/*.txt; echo done'),
          'references/open.txt': 'OPEN-TEXT\n',
          'references/private.txt': 'PRIVATE-SECRET\n',
          'references/theirs.txt': 'SOMEONE-ELSES\n',
          'closed/inside.txt': 'BEHIND-A-CLOSED-FOLDER\n',
        },
      });
      const skill = skillDir(w);
      chmodSync(join(skill, 'references/private.txt'), 0o600);
      chownSync(join(skill, 'references/theirs.txt'), 4321, 4321);
      chmodSync(join(skill, 'closed'), 0o700);
      const run = await runTool(w, 'scripts/look.sh');
      const everything = run.result.stdout.head + run.result.stderr.head;
      expect(everything).toContain('OPEN-TEXT');
      for (const secret of ['PRIVATE-SECRET', 'SOMEONE-ELSES', 'BEHIND-A-CLOSED-FOLDER'])
        expect(everything).not.toContain(secret);
      expect(run.result.stdout.head).not.toContain('/skill/closed');
      expect(run.result.notStaged?.files).toEqual([
        { path: 'closed', reason: 'unreadable' },
        { path: 'references/private.txt', reason: 'unreadable' },
        { path: 'references/theirs.txt', reason: 'other-owner' },
      ]);
    },
  );

  it('never stages links or special files, and a FIFO does not hang the run', async () => {
    const w = sandboxed({
      trust: 'trusted',
      files: { ...sh('ls -A /skill/references; echo done'), 'references/real.md': 'REAL\n' },
    });
    const skill = skillDir(w);
    symlinkSync('/etc/hostname', join(skill, 'references/outside'));
    symlinkSync('real.md', join(skill, 'references/inside'));
    execFileSync('mkfifo', [join(skill, 'references/pipe')]);
    const run = await runTool(w, 'scripts/look.sh');
    expect(run.result.stdout.head).toBe('real.md\ndone\n');
    expect(run.result.notStaged?.files).toEqual([
      { path: 'references/inside', reason: 'symlink' },
      { path: 'references/outside', reason: 'symlink' },
      { path: 'references/pipe', reason: 'special' },
    ]);
  });

  it('stages an ordinary skill whole, and reports nothing left out', async () => {
    const w = sandboxed({
      trust: 'untrusted',
      files: {
        ...sh('cat /skill/references/guide.md /skill/assets/data.csv'),
        'references/guide.md': 'GUIDE\n',
        'assets/data.csv': 'a,b\n',
      },
    });
    const run = await runTool(w, 'scripts/look.sh');
    expect(run.result.stdout.head).toBe('GUIDE\na,b\n');
    expect(run.result.notStaged).toBeUndefined();
  });

  it.runIf(asRoot)(
    'whatever the owners and modes, the script reads in /skill only what it could read in place',
    async () => {
      // An oracle: for every file of a skill with mixed owners, modes and links, what the
      // script's user (nobody) may read at the source, asked of the kernel, against what the
      // script may read in the sandbox.
      for (const trust of ['trusted', 'untrusted'] as const) {
        const w = sandboxed({
          trust,
          files: sh(
            'cd /skill && find . -type f | sort | while read f; do test -r "$f" && echo "$f"; done',
          ),
        });
        const skill = skillDir(w);
        // Readability is judged from the skill folder down: open the folders above it, so that
        // the kernel's answer at the source is about the skill's own files and folders.
        chmodSync(w.root, 0o755);
        const modes = [0o644, 0o640, 0o604, 0o600, 0o444, 0o400, 0o004, 0o000];
        const owners = [0, 65534, 4321];
        mkdirSync(join(skill, 'mixed'));
        for (const mode of modes)
          for (const owner of owners) {
            const path = join(skill, 'mixed', `f-${mode.toString(8)}-${owner}`);
            writeFileSync(path, 'x');
            chownSync(path, owner, owner === 65534 ? 65534 : owner);
            chmodSync(path, mode);
          }
        for (const mode of [0o755, 0o711, 0o700, 0o750]) {
          const folder = join(skill, `d-${mode.toString(8)}`);
          mkdirSync(folder);
          writeFileSync(join(folder, 'inner'), 'x', { mode: 0o644 });
          chmodSync(folder, mode);
        }
        linkSync(join(skill, 'mixed/f-644-0'), join(skill, 'mixed/hardlink'));
        const canRead = (relative: string) => {
          try {
            execFileSync('setpriv', [
              '--reuid=65534',
              '--regid=65534',
              '--clear-groups',
              'test',
              '-r',
              join(skill, relative),
            ]);
            return true;
          } catch {
            return false;
          }
        };
        const run = await runTool(w, 'scripts/look.sh');
        const readInside = run.result.stdout.head
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => line.slice(2));
        expect(readInside).toContain('scripts/look.sh');
        const files = filesUnder(skill).filter((path) => statSync(join(skill, path)).isFile());
        for (const path of readInside) {
          expect(files).toContain(path);
          expect({ trust, path, readable: canRead(path) }).toEqual({ trust, path, readable: true });
        }
        if (trust === 'untrusted') expect(readInside).not.toContain('mixed/hardlink');
      }
    },
  );
});

describe('the script itself', () => {
  it('an untrusted skill may not run a hard-linked script: refused by the checks and by the runner', async () => {
    const w = sandboxed({ trust: 'untrusted', files: sh('echo ran') });
    const skill = skillDir(w);
    linkSync(join(skill, 'scripts/look.sh'), join(tempDir(), 'elsewhere.sh'));
    await expect(runTool(w, 'scripts/look.sh')).rejects.toMatchObject({
      code: 'RESOURCE_HARD_LINK',
    });
    // The runner refuses it on its own too, whoever calls it.
    const request: ScriptRunRequest = {
      skillDirectory: skill,
      scriptPath: 'scripts/look.sh',
      scriptBytes: new TextEncoder().encode('#!/bin/sh\necho ran\n'),
      interpreter: 'sh',
      args: [],
      limits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 20_000 },
    };
    const runner = createSandboxRunner();
    await expect(runner.run(request)).rejects.toMatchObject({
      code: 'RESOURCE_HARD_LINK',
      message: expect.stringContaining('scripts/look.sh'),
    });
    const trusted = await runner.run({ ...request, trusted: true });
    expect(trusted.stdout.head).toBe('ran\n');
  });

  it.runIf(asRoot)('a script its user could not read is refused, naming it', async () => {
    const w = sandboxed({ trust: 'trusted', files: sh('echo ran') });
    chmodSync(join(skillDir(w), 'scripts/look.sh'), 0o700);
    await expect(runTool(w, 'scripts/look.sh')).rejects.toMatchObject({
      code: 'SCRIPT_NOT_STAGED',
      message: expect.stringMatching(/scripts\/look\.sh.*could not read it/),
    });
    const record = w.records().at(-1);
    expect(record).toMatchObject({ event: 'script-run', error: { code: 'SCRIPT_NOT_STAGED' } });
  });
});
