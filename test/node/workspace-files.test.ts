import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspaceFiles } from '../../src/node/workspace-files.js';
import type { WorkspaceFiles } from '../../src/workspace-deps.js';
import { tempDir, writeTree } from '../helpers/temp.js';

function workspace(writable = false, extra: { expose?: string[]; protect?: string[] } = {}) {
  const outside = tempDir('skillhost-outside-');
  writeTree(outside, { 'secret.txt': 'OUTSIDE-SECRET\n', 'dir/inner.txt': 'OUTSIDE-DIR\n' });
  const root = tempDir('skillhost-workspace-');
  writeTree(root, {
    'README.md': '# Project\n',
    'src/app.ts': 'export const app = 1;\n',
    '.env': 'API_KEY=WORKSPACE-ENV-SECRET\n',
    'config/.env.local': 'LOCAL-SECRET\n',
    'keys/deploy.pem': 'PEM-SECRET\n',
    '.git/config': '[core]\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    'node_modules/pkg/index.js': 'module.exports = 1;\n',
  });
  const files = createWorkspaceFiles({ path: root, writable, ...extra });
  return { root, outside, files };
}

const text = (files: WorkspaceFiles, path: string) => {
  const read = files.read(path, { maxBytes: 1024 });
  return read.ok ? Buffer.from(read.bytes).toString('utf8') : read.problem;
};

describe('reading a workspace', () => {
  it('reads files by their path relative to the workspace', () => {
    const { files } = workspace();
    expect(text(files, 'README.md')).toBe('# Project\n');
    expect(text(files, 'src/app.ts')).toContain('app = 1');
    expect(text(files, 'src/missing.ts')).toBe('missing');
  });

  it('never leaves the workspace: .. segments, links to a file or a folder outside', () => {
    const { root, outside, files } = workspace();
    expect(text(files, '../secret.txt')).toBe('outside');
    expect(text(files, 'src/../../secret.txt')).toBe('outside');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(join(outside, 'dir'), join(root, 'linkdir'));
    symlinkSync('/etc/passwd', join(root, 'passwd'));
    expect(text(files, 'link.txt')).toBe('outside');
    expect(text(files, 'linkdir/inner.txt')).toBe('outside');
    expect(text(files, 'passwd')).toBe('outside');
    const listing = files.list('linkdir', { maxEntries: 10, depth: 1 });
    expect(listing.ok === false && listing.problem).toBe('outside');
  });

  it('follows a link that stays inside, but not one onto a secret', () => {
    const { root, files } = workspace();
    symlinkSync('src/app.ts', join(root, 'app-link.ts'));
    symlinkSync('.env', join(root, 'notes.txt'));
    expect(text(files, 'app-link.ts')).toContain('app = 1');
    expect(text(files, 'notes.txt')).toBe('secret');
  });

  it('hides the files that commonly hold secrets, unless exposed', () => {
    const { files, root } = workspace();
    for (const path of ['.env', 'config/.env.local', 'keys/deploy.pem', '.git/config'])
      expect(text(files, path)).toBe('secret');
    expect(text(files, '.git/HEAD')).toContain('refs/heads/main');
    const exposed = createWorkspaceFiles({ path: root, writable: false, expose: ['.env'] });
    expect(text(exposed, '.env')).toContain('WORKSPACE-ENV-SECRET');
    const listing = files.list('', { maxEntries: 100, depth: 1 });
    if (!listing.ok) throw new Error(listing.message);
    expect(listing.entries.map((entry) => entry.path)).not.toContain('.env');
    expect(listing.hidden).toBe(1);
  });

  it('refuses FIFOs, sockets and folders without blocking, and reads only the start of a huge file', () => {
    const { root, files } = workspace();
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(text(files, 'pipe')).toBe('not-regular');
    expect(text(files, 'src')).toBe('not-regular');
    const huge = join(root, 'huge.log');
    writeFileSync(huge, 'line\n');
    truncateSync(huge, 5 * 1024 * 1024 * 1024);
    const read = files.read('huge.log', { maxBytes: 4096 });
    expect(read.ok && read.partial).toBe(true);
    expect(read.ok && read.bytes.length).toBe(4096);
    expect(read.ok && read.size).toBe(5 * 1024 * 1024 * 1024);
  });

  it('lists a tree without following links or entering .git and node_modules', () => {
    const { root, outside, files } = workspace();
    symlinkSync(outside, join(root, 'escape'));
    const listing = files.list('', { maxEntries: 100, depth: 10 });
    if (!listing.ok) throw new Error(listing.message);
    const paths = listing.entries.map((entry) => entry.path);
    expect(paths).toContain('src/app.ts');
    expect(paths).toContain('escape');
    expect(listing.entries.find((entry) => entry.path === 'escape')?.kind).toBe('symlink');
    expect(paths.some((path) => path.startsWith('escape/'))).toBe(false);
    expect(paths).toContain('.git');
    expect(paths.some((path) => path.startsWith('.git/'))).toBe(false);
    expect(paths.some((path) => path.startsWith('node_modules/'))).toBe(false);
    const modules = files.list('node_modules', { maxEntries: 100, depth: 10 });
    expect(modules.ok && modules.entries.map((entry) => entry.path)).toContain(
      'node_modules/pkg/index.js',
    );
    const capped = files.list('', { maxEntries: 2, depth: 10 });
    expect(capped.ok && capped.truncated).toBe(true);
    expect(capped.ok && capped.entries.length).toBe(2);
  });
});

describe('writing a workspace', () => {
  const bytes = (value: string) => new TextEncoder().encode(value);

  it('writes nothing to a read-only workspace', () => {
    const { files, root } = workspace(false);
    const result = files.write('new.txt', bytes('x'), {});
    expect(result.ok === false && result.problem).toBe('read-only');
    expect(() => statSync(join(root, 'new.txt'))).toThrow();
  });

  it('creates files and their folders, and replaces content in place', () => {
    const { files, root } = workspace(true);
    const created = files.write('docs/notes/a.md', bytes('hello'), {});
    expect(created).toEqual({ ok: true, created: true, bytes: 5 });
    expect(readFileSync(join(root, 'docs/notes/a.md'), 'utf8')).toBe('hello');
    const inode = statSync(join(root, 'README.md')).ino;
    expect(files.write('README.md', bytes('# New\n'), {})).toMatchObject({
      ok: true,
      created: false,
    });
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# New\n');
    expect(statSync(join(root, 'README.md')).ino).toBe(inode);
  });

  it('never writes through a link, to a hard-linked file, to a protected path or a secret', () => {
    const { files, root, outside } = workspace(true, { protect: ['generated'] });
    symlinkSync(join(outside, 'secret.txt'), join(root, 'out.txt'));
    symlinkSync(join(outside, 'dir'), join(root, 'outdir'));
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    mkdirSync(join(root, 'generated'));
    const problem = (path: string) => {
      const result = files.write(path, bytes('PWNED'), {});
      return result.ok ? 'written' : result.problem;
    };
    expect(problem('out.txt')).toBe('symlink');
    expect(problem('outdir/inner.txt')).toBe('symlink');
    expect(problem('hard.txt')).toBe('linked');
    expect(problem('.git/hooks/pre-commit')).toBe('protected');
    expect(problem('vendor/lib/.git/config')).toBe('protected');
    expect(problem('.claude/settings.json')).toBe('protected');
    expect(problem('generated/out.js')).toBe('protected');
    expect(problem('.env')).toBe('secret');
    expect(problem('../escape.txt')).toBe('outside');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET\n');
    expect(readFileSync(join(outside, 'dir/inner.txt'), 'utf8')).toBe('OUTSIDE-DIR\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).toContain('WORKSPACE-ENV-SECRET');
  });

  it('replaces content only while the file is the one that was read', () => {
    const { files, root } = workspace(true);
    const read = files.read('src/app.ts', { maxBytes: 1024 });
    if (!read.ok) throw new Error(read.message);
    writeFileSync(join(root, 'src/app.ts'), 'export const app = 22;\n');
    const result = files.write('src/app.ts', bytes('changed'), { expect: read.identity });
    expect(result.ok === false && result.problem).toBe('changed');
    expect(readFileSync(join(root, 'src/app.ts'), 'utf8')).toBe('export const app = 22;\n');
  });
});
