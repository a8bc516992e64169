import { describe, expect, it } from 'vitest';
import {
  defaultSources,
  findProjectRoot,
  SKILL_FOLDERS,
  sourceFolders,
} from '../../src/registry/sources.js';
import { createMemoryFileSystem } from '../../src/testing/memory-fs.js';

describe('finding the project root', () => {
  const fs = createMemoryFileSystem({
    '/home/me/.claude/settings.json': '{}',
    '/home/me/.git/HEAD': 'ref',
    '/home/me/code/repo/.git': 'gitdir: /elsewhere', // a worktree's .git is a file
    '/home/me/code/repo/packages/app/.skillhost/skills/x/SKILL.md': 'x',
    '/home/me/code/repo/packages/app/src/index.ts': '',
    '/home/me/plain/notes.txt': '',
    '/srv/site/.agents/skills/y/SKILL.md': 'y',
    '/srv/site/deep/er/file': '',
  });

  it('is the nearest folder at or above the start holding a marker', () => {
    expect(findProjectRoot(fs, '/home/me/code/repo/packages/app/src', '/home/me')).toEqual({
      path: '/home/me/code/repo/packages/app',
      marker: '.skillhost',
    });
    expect(findProjectRoot(fs, '/home/me/code/repo/packages', '/home/me')).toEqual({
      path: '/home/me/code/repo',
      marker: '.git',
    });
    expect(findProjectRoot(fs, '/srv/site/deep/er', '/home/me')).toEqual({
      path: '/srv/site',
      marker: '.agents',
    });
  });

  it('never is the home folder or above it, whose .claude and .git are the user own', () => {
    expect(findProjectRoot(fs, '/home/me/plain', '/home/me')).toBeUndefined();
    expect(findProjectRoot(fs, '/home/me', '/home/me/')).toBeUndefined();
    // Without a home folder to stop at, the search goes to the root.
    expect(findProjectRoot(fs, '/home/me/plain')).toEqual({ path: '/home/me', marker: '.git' });
  });
});

describe('the standard folders', () => {
  it('has a stable id and a label for every folder, each switchable off', () => {
    const all = sourceFolders({ projectDir: '/p', projectTrusted: true, homeDir: '/h' });
    expect(all.map((state) => state.source.id)).toEqual(SKILL_FOLDERS.map((folder) => folder.id));
    expect(all.find((state) => state.source.id === 'user-copilot')?.source).toEqual({
      id: 'user-copilot',
      kind: 'user',
      root: '/h/.copilot/skills',
      trust: 'trusted',
      enabled: true,
      label: 'GitHub Copilot (user)',
    });
    const off = sourceFolders({
      projectDir: '/p',
      homeDir: '/h',
      switchedOff: ['user-claude', 'project-gemini'],
    });
    expect(off.filter((state) => state.switchedOff).map((state) => state.source.id)).toEqual([
      'project-gemini',
      'user-claude',
    ]);
    const ids = defaultSources({
      projectDir: '/p',
      homeDir: '/h',
      switchedOff: ['user-claude', 'project-gemini'],
    }).map((source) => source.id);
    expect(ids).not.toContain('user-claude');
    expect(ids).not.toContain('project-gemini');
    expect(ids).toContain('project-github');
    // An untrusted project's folders, new ones included, are listed but not enabled.
    expect(
      defaultSources({ projectDir: '/p', projectTrusted: false })
        .filter((source) => source.kind === 'project')
        .every((source) => source.trust === 'untrusted' && !source.enabled),
    ).toBe(true);
  });
});
