import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCodePaths, gitConfigEntries } from '../../src/node/sandbox-git.js';
import {
  normaliseProtectedPath,
  type PathFacts,
  planProtection,
} from '../../src/node/sandbox-workspace.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** A workspace described as path → what it is; everything else is missing. */
const lookIn =
  (tree: Record<string, PathFacts['kind'] | [PathFacts['kind'], number]>) =>
  (path: string): PathFacts => {
    const found = tree[path];
    if (found === undefined) return { kind: 'missing', links: 0 };
    return Array.isArray(found) ? { kind: found[0], links: found[1] } : { kind: found, links: 1 };
  };
const dir = (path: string) => ({ path, kind: 'directory' as const });
const file = (path: string) => ({ path, kind: 'file' as const });

describe('protected paths as given', () => {
  it('are made relative to the workspace, plain and POSIX', () => {
    expect(normaliseProtectedPath('Makefile', '/ws')).toBe('Makefile');
    expect(normaliseProtectedPath('./config//secrets/', '/ws')).toBe('config/secrets');
    expect(normaliseProtectedPath('/ws/config/a.env', '/ws')).toBe('config/a.env');
    expect(normaliseProtectedPath('a\\b', '/ws')).toBe('a/b');
  });

  it('may not leave the workspace, nor be all of it', () => {
    for (const given of ['../etc', 'a/../../b', '/etc/passwd', '/ws2/x', '.', '', '/ws'])
      expect(() => normaliseProtectedPath(given, '/ws')).toThrow(
        expect.objectContaining({ code: 'WORKSPACE_REFUSED' }),
      );
  });
});

describe('planning the protection', () => {
  it('binds what exists read-only and holds what is missing absent', () => {
    const plan = planProtection(
      [dir('.git'), dir('.claude'), file('.envrc')],
      lookIn({ '.git': 'directory', '.envrc': 'file' }),
    );
    expect(plan).toEqual({
      pinned: [],
      readOnly: ['.envrc', '.git'],
      absent: [dir('.claude')],
    });
  });

  it('pins the folders on the way to a nested path, and holds a missing one at its first missing folder', () => {
    const tree = lookIn({
      config: 'directory',
      'config/secrets': 'directory',
      'config/secrets/a': 'file',
    });
    expect(planProtection([file('config/secrets/a'), dir('config/other/deep')], tree)).toEqual({
      pinned: ['config', 'config/secrets'],
      readOnly: ['config/secrets/a'],
      absent: [dir('config/other')],
    });
    expect(planProtection([dir('deploy/keys')], tree).absent).toEqual([dir('deploy')]);
  });

  it('needs nothing more for a path inside one already held', () => {
    const tree = lookIn({ '.github': 'directory', '.github/workflows': 'directory' });
    expect(planProtection([file('.github/copilot-instructions.md'), dir('.github')], tree)).toEqual(
      {
        pinned: [],
        readOnly: ['.github'],
        absent: [],
      },
    );
  });

  it('holds a file where a folder is expected (removing it would make room)', () => {
    expect(planProtection([file('build/out')], lookIn({ build: 'file' }))).toEqual({
      pinned: [],
      readOnly: ['build'],
      absent: [],
    });
  });

  it('refuses links on the way and protected files with other hard links', () => {
    expect(() => planProtection([dir('.claude')], lookIn({ '.claude': 'symlink' }))).toThrow(
      expect.objectContaining({
        code: 'WORKSPACE_REFUSED',
        message: expect.stringContaining('.claude in the writable workspace is a symbolic link'),
      }),
    );
    expect(() => planProtection([file('a/b')], lookIn({ a: 'symlink' }))).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_REFUSED' }),
    );
    expect(() => planProtection([file('.envrc')], lookIn({ '.envrc': ['file', 2] }))).toThrow(
      expect.objectContaining({ message: expect.stringContaining('other hard links') }),
    );
  });
});

describe('what git runs or reads from a workspace', () => {
  it('reads git config entries: sections, subsections, quotes, comments, escapes', () => {
    expect(
      gitConfigEntries(
        [
          '[core]',
          '\thooksPath = "my hooks" ; a comment',
          '\tbare',
          '[includeIf "gitdir:~/work/"]',
          '  path = ../shared\\\\x.gitconfig # more',
          '[Core.Sub] HooksPath=.hooks',
        ].join('\n'),
      ),
    ).toEqual([
      { section: 'core', key: 'hookspath', value: 'my hooks' },
      { section: 'core', key: 'bare', value: 'true' },
      { section: 'includeif', key: 'path', value: '../shared\\x.gitconfig' },
      { section: 'core', key: 'hookspath', value: '.hooks' },
    ]);
  });

  it("finds the hooks folder and included files in the workspace, from the repository's and the user's config", () => {
    const workspace = writeTree(tempDir('skillhost-repo-'), {
      '.git/config':
        '[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../team.gitconfig\n\tpath = /etc/outside.gitconfig\n',
      'team.gitconfig': '[include]\n\tpath = tools/more.gitconfig\n',
    });
    const home = writeTree(tempDir('skillhost-home-'), {
      '.gitconfig': '[core]\n\thooksPath = ~/hooks\n[include]\n\tpath = ~/x\n',
      '.config/git/config': `[includeIf "gitdir:/"]\n\tpath = ${join(workspace, 'ci/git.conf')}\n`,
    });
    expect(gitCodePaths(workspace, home)).toEqual([
      '.git/config',
      '.githooks',
      'ci/git.conf',
      'team.gitconfig',
      'tools/more.gitconfig',
    ]);
  });

  it('follows a .git file to its repository (a worktree or submodule)', () => {
    const repo = writeTree(tempDir('skillhost-main-'), {
      '.git/worktrees/wt/commondir': '../..\n',
      '.git/config': '[core]\n\thooksPath = hooks-here\n',
    });
    const worktree = tempDir('skillhost-worktree-');
    writeTree(worktree, { '.git': `gitdir: ${join(repo, '.git/worktrees/wt')}\n` });
    mkdirSync(join(worktree, 'src'));
    expect(gitCodePaths(worktree, undefined)).toEqual(['hooks-here']);
    expect(gitCodePaths(tempDir('skillhost-plain-'), undefined)).toEqual([]);
  });
});
