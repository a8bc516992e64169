import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptWorkspace } from '../../src/deps.js';
import { runTool, skillDir, type WorldOptions, world } from '../helpers/runtime.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// Real skills' scripts: the user's files as given, the skill where the model was told it is,
// what they write kept and listed, secrets hidden, and root in containers.

const sandboxed = (options: WorldOptions) => world({ ...options, runner: 'bubblewrap' });
const isRoot = process.getuid?.() === 0;

/** A project folder with data, a secret and a nested repository's config. */
function project(): string {
  return writeTree(tempDir('skillhost-project-'), {
    'data/sales.csv': 'month,total\njan,10\n',
    'README.md': '# Project\n',
    '.env': 'API_TOKEN=PROJECT-SECRET\n',
    'config/.env.production': 'DB_PASSWORD=PROJECT-SECRET\n',
    'certs/server.key': 'PROJECT-SECRET\n',
    '.git/config': '[remote "origin"]\n\turl = https://token:PROJECT-SECRET@example.com/x\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
  });
}

const readFiles = {
  'scripts/read.py': [
    '#!/usr/bin/env python3',
    'import os, sys',
    'for path in sys.argv[1:]:',
    '    try:',
    '        with open(path) as f: print(path, "->", f.read().strip().splitlines()[0])',
    '    except OSError as error:',
    '        print(f"{path}: {error.strerror}", file=sys.stderr)',
    '        sys.exit(1)',
    'print("cwd", os.getcwd())',
  ].join('\n'),
};

describe('the workspace', () => {
  it('is the working directory: a workspace file given as a relative and as an absolute path', async () => {
    const folder = project();
    const w = sandboxed({ files: readFiles, workspace: { path: folder, writable: false } });
    const run = await runTool(w, 'scripts/read.py', [
      'data/sales.csv',
      join(folder, 'data/sales.csv'),
      './README.md',
    ]);
    expect(run.result.stderr.head).toBe('');
    expect(run.result.stdout.head).toBe(
      [
        'data/sales.csv -> month,total',
        `${join(folder, 'data/sales.csv')} -> month,total`,
        './README.md -> # Project',
        `cwd ${folder}`,
        '',
      ].join('\n'),
    );
  });

  it('hides the files that commonly hold secrets, and says how to show one', async () => {
    const folder = project();
    const workspace: ScriptWorkspace = { path: folder, writable: false };
    for (const secret of ['.env', 'config/.env.production', 'certs/server.key', '.git/config']) {
      const w = sandboxed({ files: readFiles, workspace });
      const run = await runTool(w, 'scripts/read.py', [secret]);
      expect(run.result.stdout.head).not.toContain('PROJECT-SECRET');
      expect(run.result.exitCode).toBe(1);
      expect(run.result.hints?.join('\n')).toContain(`--expose ${secret}`);
    }
    // .git itself is still there, only its config is hidden.
    const w = sandboxed({ files: readFiles, workspace });
    const head = await runTool(w, 'scripts/read.py', ['.git/HEAD']);
    expect(head.result.stdout.head).toContain('ref: refs/heads/main');
    const exposed = sandboxed({
      files: readFiles,
      workspace: { ...workspace, expose: ['.env'] },
    });
    const run = await runTool(exposed, 'scripts/read.py', ['.env', 'data/sales.csv']);
    expect(run.result.stdout.head).toContain('.env -> API_TOKEN=PROJECT-SECRET');
  });

  it('shows a read-only workspace with a run folder as real folders: a walk finds what the host has, secrets hidden', async () => {
    const folder = project();
    const w = sandboxed({
      files: {
        'scripts/walk.sh': [
          '#!/bin/sh',
          'find . -type f | sort',
          'cat config/.env.production certs/server.key .env .git/config 2>/dev/null | grep -c SECRET',
        ].join('\n'),
      },
      workspace: { path: folder, writable: false, outputs: join(folder, '.skillhost/runs') },
    });
    const run = await runTool(w, 'scripts/walk.sh');
    // find does not follow links: before, every entry was a link into the view and it found none.
    expect(run.result.stdout.head.split('\n')).toEqual(
      expect.arrayContaining(['./.git/HEAD', './README.md', './data/sales.csv']),
    );
    expect(run.result.stdout.head).not.toContain('PROJECT-SECRET');
    expect(run.result.stdout.head.trim().split('\n').at(-1)).toBe('0');
    // Nothing was written: the placeholders the entries were mounted over are gone.
    expect(run.result.written?.count ?? 0).toBe(0);
    expect(existsSync(join(folder, '.skillhost/runs'))).toBe(true);
    expect(readdirSync(join(folder, '.skillhost/runs'))).toEqual([]);
  });

  it('shows every entry of a workspace with more entries than it mounts one by one', async () => {
    const folder = tempDir('skillhost-wide-');
    for (let index = 0; index < 300; index += 1)
      writeTree(folder, { [`file-${String(index).padStart(3, '0')}.txt`]: `${index}\n` });
    const w = sandboxed({
      files: { 'scripts/count.sh': '#!/bin/sh\nls | wc -l; cat file-299.txt\n' },
      workspace: {
        path: folder,
        writable: false,
        outputs: join(tempDir('skillhost-runs-'), 'runs'),
      },
    });
    const run = await runTool(w, 'scripts/count.sh');
    expect(run.result.stdout.head.split('\n').map((line) => line.trim())).toEqual([
      '300',
      '299',
      '',
    ]);
  });

  it('says the sandbox hid a host path outside what it shows', async () => {
    const outside = writeTree(tempDir('skillhost-outside-'), { 'notes.txt': 'OUTSIDE\n' });
    chmodSync(outside, 0o755);
    const w = sandboxed({ files: readFiles, workspace: { path: project(), writable: false } });
    const run = await runTool(w, 'scripts/read.py', [join(outside, 'notes.txt')]);
    expect(run.result.stdout.head).not.toContain('OUTSIDE');
    expect(run.result.hints?.join('\n')).toContain(
      `${join(outside, 'notes.txt')} exists on this machine, but the sandbox does not show it`,
    );
  });
});

describe("the skill's own files", () => {
  it('are at the path the model was told, read-only, and SKILL_DIR still names them', async () => {
    const w = sandboxed({
      files: {
        ...readFiles,
        'assets/sample.csv': 'a,b\n1,2\n',
        'scripts/env.sh': '#!/bin/sh\necho "$SKILL_DIR"; cat "$SKILL_DIR/assets/sample.csv"\n',
      },
      workspace: { path: project(), writable: false },
    });
    const sample = join(skillDir(w), 'assets/sample.csv');
    const run = await runTool(w, 'scripts/read.py', [sample]);
    expect(run.result.stdout.head).toContain(`${sample} -> a,b`);
    const env = await runTool(w, 'scripts/env.sh');
    expect(env.result.stdout.head).toBe('/skill\na,b\n1,2\n');
  });
});

const writeFiles = {
  'scripts/write.sh': [
    '#!/bin/sh',
    'echo "report" > report.md',
    'mkdir -p out/charts && printf 12345 > out/charts/a.txt',
    'ln -s /etc/passwd link-out',
    'echo changed >> README.md 2>/dev/null || echo "README refused"',
  ].join('\n'),
};

describe('what a script writes', () => {
  it('in a read-only workspace is kept in a run folder and listed', async () => {
    const folder = project();
    const outputs = join(folder, '.skillhost/runs');
    const w = sandboxed({
      files: writeFiles,
      workspace: { path: folder, writable: false, outputs },
    });
    const run = await runTool(w, 'scripts/write.sh');
    expect(run.result.exitCode).toBe(0);
    expect(run.result.stdout.head).toContain('README refused');
    const written = run.result.written;
    expect(written?.count).toBe(2);
    expect(written?.folder?.startsWith(`${outputs}/`)).toBe(true);
    expect(written?.files).toEqual([
      {
        path: 'out/charts/a.txt',
        bytes: 5,
        location: join(written?.folder ?? '', 'out/charts/a.txt'),
      },
      { path: 'report.md', bytes: 7, location: join(written?.folder ?? '', 'report.md') },
    ]);
    expect(written?.removed).toEqual(['link-out']);
    expect(readFileSync(join(written?.folder ?? '', 'report.md'), 'utf8')).toBe('report\n');
    // The workspace itself is untouched, and the run folder holds only what was written.
    expect(existsSync(join(folder, 'report.md'))).toBe(false);
    expect(readFileSync(join(folder, 'README.md'), 'utf8')).toBe('# Project\n');
    expect(existsSync(join(written?.folder ?? '', 'data'))).toBe(false);
  });

  it('leaves no run folder behind when nothing was written', async () => {
    const folder = project();
    const outputs = join(folder, '.skillhost/runs');
    const w = sandboxed({
      files: readFiles,
      workspace: { path: folder, writable: false, outputs },
    });
    const run = await runTool(w, 'scripts/read.py', ['README.md']);
    expect(run.result.written).toEqual({ count: 0, files: [] });
    expect(readdirSync(outputs)).toEqual([]);
  });

  it('in a writable workspace is kept in place and listed', async () => {
    const folder = project();
    const w = sandboxed({ files: writeFiles, workspace: { path: folder, writable: true } });
    const run = await runTool(w, 'scripts/write.sh');
    expect(run.result.exitCode).toBe(0);
    expect(run.result.written?.files).toEqual([
      { path: 'README.md', bytes: 18, location: join(folder, 'README.md') },
      { path: 'out/charts/a.txt', bytes: 5, location: join(folder, 'out/charts/a.txt') },
      { path: 'report.md', bytes: 7, location: join(folder, 'report.md') },
    ]);
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toBe('report\n');
  });
});

describe.runIf(isRoot)('as root', () => {
  it('writes to a root-owned workspace, as root without capabilities, with root-only system files hidden', async () => {
    const folder = project();
    chmodSync(folder, 0o700);
    const w = sandboxed({
      files: {
        'scripts/root.sh': [
          '#!/bin/sh',
          'id -u',
          'echo written > made.txt && echo WROTE',
          'cat /etc/shadow >/dev/null 2>&1 && echo "READ SHADOW" || echo "shadow refused"',
          'cat .env >/dev/null 2>&1 && echo "READ ENV" || echo "env refused"',
          'touch /usr/x 2>/dev/null && echo "WROTE USR" || echo "usr refused"',
        ].join('\n'),
      },
      workspace: { path: folder, writable: true },
    });
    const run = await runTool(w, 'scripts/root.sh');
    expect(run.result.stdout.head).toBe('0\nWROTE\nshadow refused\nenv refused\nusr refused\n');
    expect(statSync(join(folder, 'made.txt')).uid).toBe(0);
  });

  it('refuses a workspace its owner cannot write with WORKSPACE_NOT_WRITABLE', async () => {
    const folder = project();
    chownSync(folder, 1000, 1000);
    chmodSync(folder, 0o555);
    const w = sandboxed({ files: writeFiles, workspace: { path: folder, writable: true } });
    await expect(runTool(w, 'scripts/write.sh')).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_WRITABLE',
    });
  });
});

describe("the user's toolchains", () => {
  const importer = {
    'scripts/use.py': [
      '#!/usr/bin/env python3',
      'import sys',
      'import importlib',
      'for name in sys.argv[1:]:',
      '    module = importlib.import_module(name)',
      '    print(name, module.VALUE)',
      'print("prefix", sys.prefix)',
    ].join('\n'),
  };

  it("imports a package from the project's .venv with its python", async () => {
    const folder = project();
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', join(folder, '.venv')]);
    const version = execFileSync(join(folder, '.venv/bin/python'), [
      '-c',
      'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")',
    ])
      .toString()
      .trim();
    writeTree(folder, {
      [`.venv/lib/python${version}/site-packages/venvpkg/__init__.py`]: 'VALUE = "from the venv"\n',
    });
    const w = sandboxed({ files: importer, workspace: { path: folder, writable: false } });
    const run = await runTool(w, 'scripts/use.py', ['venvpkg']);
    expect(run.result.stderr.head).toBe('');
    expect(run.result.stdout.head).toBe(`venvpkg from the venv\nprefix ${join(folder, '.venv')}\n`);
  });

  it("imports a package from the user's site-packages", async () => {
    const home = tempDir('skillhost-user-');
    const versions = new Set(
      ['/usr/bin/python3', 'python3'].map((python) =>
        execFileSync(python, [
          '-c',
          'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")',
        ])
          .toString()
          .trim(),
      ),
    );
    for (const version of versions)
      writeTree(home, {
        [`.local/lib/python${version}/site-packages/userpkg/__init__.py`]:
          'VALUE = "from the user"\n',
        '.ssh/id_rsa': 'USER-SECRET\n',
      });
    const w = sandboxed({
      files: {
        ...importer,
        'scripts/ssh.py': `#!/usr/bin/env python3\nimport os\nprint(sorted(os.listdir(${JSON.stringify(home)})))\ntry:\n    print(open(${JSON.stringify(`${home}/.ssh/id_rsa`)}).read())\nexcept OSError as error:\n    print(error.strerror)\n`,
      },
      workspace: { path: project(), writable: false },
      sandbox: { homeDir: home },
    });
    const run = await runTool(w, 'scripts/use.py', ['userpkg']);
    expect(run.result.stdout.head).toContain('userpkg from the user');
    // Only the site-packages folders are bound, not the rest of the home.
    const ssh = await runTool(w, 'scripts/ssh.py');
    expect(ssh.result.stdout.head).toBe("['.local']\nNo such file or directory\n");
  });
});

describe('the network', () => {
  it('is off by default with a hint, and on with allowNetwork once the user confirms it for that script', async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.end('hello from the host');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const files = {
      'scripts/fetch.py': [
        '#!/usr/bin/env python3',
        'import sys, urllib.request',
        `print(urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=5).read().decode())`,
      ].join('\n'),
    };
    try {
      const off = sandboxed({ files });
      const refused = await runTool(off, 'scripts/fetch.py');
      expect(refused.result.exitCode).not.toBe(0);
      expect(refused.result.hints?.join('\n')).toContain('--allow-net');
      expect(hits).toBe(0);

      // Pre-approved by nothing: the user is asked, once for the run and its network.
      const on = sandboxed({ files, allowNetwork: true, answers: ['yes'] });
      on.runtime.activate('tool', { triggeredBy: 'user' });
      const run = await on.runtime.runScript('tool', 'scripts/fetch.py', []);
      expect(run.result.stdout.head).toBe('hello from the host\n');
      expect(hits).toBe(1);
      expect(on.questions).toHaveLength(1);
      expect(on.questions[0]).toMatchObject({ kind: 'script', network: true });
      const record = on.records().find((entry) => entry.event === 'script-run');
      expect(record?.details).toMatchObject({ network: 'allowed' });

      // A run the skill's allowed-tools pre-approves still needs the user for the network.
      const granted = sandboxed({
        files,
        allowNetwork: true,
        allowedTools: 'Bash(python3 scripts/fetch.py:*)',
      });
      granted.runtime.activate('tool', { triggeredBy: 'user' });
      await expect(granted.runtime.runScript('tool', 'scripts/fetch.py', [])).rejects.toMatchObject(
        {
          code: 'PERMISSION_REQUIRED',
          message: expect.stringContaining('--yes'),
        },
      );
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });
});
