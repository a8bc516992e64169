import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSkillSource } from '../../src/node/install/fetch.js';
import { gitEnvironment } from '../../src/node/install/git.js';
import { makeTarGz } from '../helpers/archives.js';
import { commitChanges, git, makeRepository, serveGitHttp } from '../helpers/git.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

const env = { PATH: process.env.PATH, HOME: '/nonexistent' };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await (closers.pop() as () => Promise<void>)();
});

function repository(root: string): string {
  return makeRepository(root, {
    'skills/pdf/SKILL.md': skillText('name: pdf\ndescription: Reads PDFs. Use for PDF files.'),
    'skills/pdf/scripts/extract.sh': 'echo extract\n',
    'README.md': '# Skills\n',
  });
}

describe('fetching a git source', () => {
  it('checks out the default branch of a repository on the file system, with hooks and prompts off', async () => {
    const root = tempDir();
    const upstream = repository(root);
    // The user's own git configuration names a hooks folder whose post-checkout hook leaves a
    // mark, and a credential helper: neither is used.
    const home = tempDir('skillhost-home-');
    const marker = join(home, 'hook-ran');
    writeTree(home, {
      '.gitconfig': `[core]\n\thooksPath = ${home}/hooks\n[credential]\n\thelper = !touch ${home}/helper-ran\n`,
      'hooks/post-checkout': `#!/bin/sh\ntouch ${marker}\n`,
    });
    chmodSync(join(home, 'hooks/post-checkout'), 0o755);
    const temp = tempDir('skillhost-fetch-tmp-');
    const fetched = await fetchSkillSource(
      { type: 'git', url: `file://${upstream}` },
      { env: { ...env, HOME: home }, tempDir: temp },
    );
    try {
      expect(fetched.commit).toBe(git(upstream, 'rev-parse', 'HEAD'));
      expect(readFileSync(join(fetched.root, 'skills/pdf/SKILL.md'), 'utf8')).toContain(
        'name: pdf',
      );
      expect(existsSync(join(fetched.root, '.git', 'hooks'))).toBe(false);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(join(home, 'helper-ran'))).toBe(false);
      // Shallow: one commit.
      expect(git(fetched.root, 'rev-list', '--count', 'HEAD')).toBe('1');
    } finally {
      fetched.dispose();
    }
    expect(readdirSync(temp)).toEqual([]);
  });

  it('fetches over smart HTTP from 127.0.0.1 at a ref, and the subpath', async () => {
    const root = tempDir();
    const upstream = repository(root);
    const first = git(upstream, 'rev-parse', 'HEAD');
    git(upstream, 'tag', 'v1');
    commitChanges(upstream, {
      'skills/pdf/SKILL.md': skillText('name: pdf\ndescription: Version two. Use for PDFs.'),
    });
    git(upstream, 'clone', '--quiet', '--bare', upstream, join(root, 'served', 'skills.git'));
    const server = await serveGitHttp(join(root, 'served'));
    closers.push(() => server.close());
    const fetched = await fetchSkillSource(
      { type: 'git', url: server.url('skills.git'), ref: 'v1', subpath: 'skills' },
      { env, tempDir: tempDir() },
    );
    try {
      expect(fetched.commit).toBe(first);
      expect(fetched.searchRoot).toBe(join(fetched.root, 'skills'));
      expect(readFileSync(join(fetched.searchRoot, 'pdf/SKILL.md'), 'utf8')).toContain(
        'Reads PDFs',
      );
      expect(server.requests.some((line) => line.includes('git-upload-pack'))).toBe(true);
    } finally {
      fetched.dispose();
    }
  });

  it('fetches a pinned commit that is no longer a branch tip', async () => {
    const root = tempDir();
    const upstream = repository(root);
    const first = git(upstream, 'rev-parse', 'HEAD');
    commitChanges(upstream, { 'README.md': 'changed\n' });
    const fetched = await fetchSkillSource(
      { type: 'git', url: `file://${upstream}` },
      { env, tempDir: tempDir(), pinned: { commit: first } },
    );
    try {
      expect(git(fetched.root, 'rev-parse', 'HEAD')).toBe(first);
      expect(readFileSync(join(fetched.root, 'README.md'), 'utf8')).toBe('# Skills\n');
    } finally {
      fetched.dispose();
    }
  });

  it('names a missing ref and a missing subpath, and leaves nothing behind', async () => {
    const root = tempDir();
    const upstream = repository(root);
    const temp = tempDir();
    await expect(
      fetchSkillSource(
        { type: 'git', url: `file://${upstream}`, ref: 'nope' },
        { env, tempDir: temp },
      ),
    ).rejects.toMatchObject({ code: 'SOURCE_REF_NOT_FOUND' });
    await expect(
      fetchSkillSource(
        { type: 'git', url: `file://${upstream}`, subpath: 'missing' },
        { env, tempDir: temp },
      ),
    ).rejects.toMatchObject({ code: 'SOURCE_SUBPATH_NOT_FOUND' });
    await expect(
      fetchSkillSource({ type: 'git', url: `file://${root}/nothing-here` }, { env, tempDir: temp }),
    ).rejects.toMatchObject({ code: 'SOURCE_FETCH_FAILED' });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('never fetches submodules unless asked', async () => {
    const root = tempDir();
    const inner = makeRepository(join(root, 'inner'), { 'x.txt': 'inner\n' });
    const upstream = repository(root);
    git(
      upstream,
      '-c',
      'protocol.file.allow=always',
      'submodule',
      '--quiet',
      'add',
      `file://${inner}`,
      'skills/pdf/vendor',
    );
    git(upstream, 'commit', '--quiet', '-m', 'submodule');
    const plain = await fetchSkillSource(
      { type: 'git', url: `file://${upstream}` },
      { env, tempDir: tempDir() },
    );
    try {
      expect(readdirSync(join(plain.root, 'skills/pdf/vendor'))).toEqual([]);
    } finally {
      plain.dispose();
    }
    // Asked for, a submodule on the file system is still refused: file URLs only where the user gave one.
    await expect(
      fetchSkillSource(
        { type: 'git', url: `file://${upstream}`, submodules: true },
        { env, tempDir: tempDir() },
      ),
    ).rejects.toMatchObject({ code: 'SOURCE_FETCH_FAILED' });
  });

  it('gives git an environment with no prompt, no user or system configuration, and nothing of a repository', () => {
    const built = gitEnvironment({
      GIT_DIR: '/repo/.git',
      HTTPS_PROXY: 'http://proxy:1',
      SECRET: 'x',
      HOME: '/home/u',
    });
    expect(built).toMatchObject({
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      HTTPS_PROXY: 'http://proxy:1',
    });
    expect(built.GIT_DIR).toBeUndefined();
    expect(built.SECRET).toBeUndefined();
    expect(built.GIT_SSH_COMMAND).toContain('BatchMode=yes');
  });
});

describe('fetching an archive', () => {
  const archive = () =>
    makeTarGz([
      { name: 'pack-1.0/', type: 'directory' },
      {
        name: 'pack-1.0/pdf/SKILL.md',
        content: skillText('name: pdf\ndescription: Reads PDFs. Use for PDF files.'),
      },
    ]);

  it('downloads from 127.0.0.1, records the digest, and takes a single top folder as the root', async () => {
    const bytes = archive();
    const server = createServer((_request, response) => response.end(bytes));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pack.tgz`;
    const fetched = await fetchSkillSource(
      { type: 'archive', location: url },
      { env, tempDir: tempDir() },
    );
    try {
      expect(fetched.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(existsSync(join(fetched.root, 'pdf/SKILL.md'))).toBe(true);
    } finally {
      fetched.dispose();
    }
    await expect(
      fetchSkillSource(
        { type: 'archive', location: url },
        { env, tempDir: tempDir(), pinned: { digest: `sha256:${'0'.repeat(64)}` } },
      ),
    ).rejects.toMatchObject({ code: 'LOCKFILE_MISMATCH' });
  });

  it('leaves nothing of a refused archive', async () => {
    const root = tempDir();
    const file = join(root, 'evil.tgz');
    writeFileSync(file, makeTarGz([{ name: '../escape.txt', content: 'x' }]));
    const temp = tempDir();
    await expect(
      fetchSkillSource({ type: 'archive', location: file }, { env, tempDir: temp }),
    ).rejects.toMatchObject({
      code: 'ARCHIVE_PATH_UNSAFE',
    });
    expect(readdirSync(temp)).toEqual([]);
    expect(existsSync(join(root, '..', 'escape.txt'))).toBe(false);
  });
});
