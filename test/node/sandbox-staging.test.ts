import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type EntryFacts,
  mayAccess,
  stageSkill,
  stagingVerdict,
  type VerdictContext,
} from '../../src/node/sandbox-staging.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const nobody = { uid: 65534, gid: 65534 };
const file = (overrides: Partial<EntryFacts> = {}): EntryFacts => ({
  kind: 'file',
  uid: 1000,
  gid: 1000,
  mode: 0o644,
  links: 1,
  ...overrides,
});
const context = (overrides: Partial<VerdictContext> = {}): VerdictContext => ({
  trusted: false,
  skillOwner: 1000,
  user: nobody,
  reachable: true,
  ...overrides,
});

describe('what the permission bits allow the sandbox user', () => {
  it('takes the owner, else the group, else the others bits, never more than one class', () => {
    expect(mayAccess(file({ mode: 0o604 }), nobody, 4)).toBe(true);
    expect(mayAccess(file({ mode: 0o640 }), nobody, 4)).toBe(false);
    expect(mayAccess(file({ mode: 0o640, gid: 65534 }), nobody, 4)).toBe(true);
    // The owner class decides for the owner, even when others may read.
    expect(mayAccess(file({ mode: 0o004, uid: 65534 }), nobody, 4)).toBe(false);
    expect(mayAccess(file({ mode: 0o711, kind: 'directory' }), nobody, 1)).toBe(true);
    expect(mayAccess(file({ mode: 0o711, kind: 'directory' }), nobody, 5)).toBe(false);
  });
});

describe('the staging verdict', () => {
  it('stages an ordinary file of an untrusted skill', () => {
    expect(stagingVerdict(file(), context())).toBeUndefined();
    expect(stagingVerdict(file({ kind: 'directory', mode: 0o755 }), context())).toBeUndefined();
  });

  it('leaves out an untrusted skill’s hard links, other owners’ files and what its user could not read', () => {
    expect(stagingVerdict(file({ links: 2 }), context())).toBe('hard-link');
    expect(stagingVerdict(file({ uid: 0 }), context())).toBe('other-owner');
    expect(stagingVerdict(file({ mode: 0o600 }), context())).toBe('unreadable');
    expect(stagingVerdict(file(), context({ reachable: false }))).toBe('unreadable');
    expect(stagingVerdict(file({ kind: 'directory', mode: 0o700 }), context())).toBe('unreadable');
    expect(stagingVerdict(file({ kind: 'directory', uid: 0 }), context())).toBe('other-owner');
  });

  it('stages those of a trusted skill (they keep their owner and mode)', () => {
    for (const facts of [file({ links: 2 }), file({ uid: 0 }), file({ mode: 0o600 })])
      expect(stagingVerdict(facts, context({ trusted: true }))).toBeUndefined();
  });

  it('never stages links or special files, whatever the trust', () => {
    for (const trusted of [true, false]) {
      expect(stagingVerdict(file({ kind: 'symlink' }), context({ trusted }))).toBe('symlink');
      expect(stagingVerdict(file({ kind: 'special' }), context({ trusted }))).toBe('special');
    }
  });
});

describe('staging a skill folder', () => {
  const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const stage = (source: string, trusted: boolean, scriptText = '#!/bin/sh\necho approved\n') => {
    const target = join(tempDir('skillhost-stage-'), 'skill');
    const notStaged = stageSkill({
      source,
      target,
      trusted,
      user: self,
      keepOwners: false,
      script: { path: 'scripts/run.sh', bytes: new TextEncoder().encode(scriptText) },
    });
    return { target, notStaged };
  };

  it('copies files and folders with their modes, write bits dropped, and the approved script bytes', () => {
    const source = writeTree(tempDir('skillhost-skill-'), {
      'SKILL.md': 'x',
      'scripts/run.sh': '#!/bin/sh\necho on disk\n',
      'references/guide.md': 'GUIDE',
      'node_modules/pkg/index.js': '',
      '.git/config': '',
    });
    chmodSync(join(source, 'references/guide.md'), 0o640);
    const { target, notStaged } = stage(source, false);
    expect(readFileSync(join(target, 'scripts/run.sh'), 'utf8')).toBe('#!/bin/sh\necho approved\n');
    expect(readFileSync(join(target, 'references/guide.md'), 'utf8')).toBe('GUIDE');
    expect(statSync(join(target, 'references/guide.md')).mode & 0o777).toBe(0o440);
    expect(statSync(join(target, 'references')).mode & 0o777).toBe(0o755);
    expect(notStaged).toEqual({
      count: 2,
      files: [
        { path: '.git', reason: 'excluded' },
        { path: 'node_modules', reason: 'excluded' },
      ],
    });
  });

  it('leaves out hard links and links of an untrusted skill; a script behind a link gets its bytes', () => {
    const outside = writeTree(tempDir('skillhost-outside-'), { 'secret.txt': 'SECRET' });
    const source = writeTree(tempDir('skillhost-skill-'), {
      'SKILL.md': 'x',
      'scripts/real.sh': '#!/bin/sh\n',
    });
    linkSync(join(outside, 'secret.txt'), join(source, 'linked.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(source, 'pointer.txt'));
    symlinkSync('real.sh', join(source, 'scripts/run.sh'));
    const untrusted = stage(source, false);
    expect(existsSync(join(untrusted.target, 'linked.txt'))).toBe(false);
    expect(existsSync(join(untrusted.target, 'pointer.txt'))).toBe(false);
    expect(readFileSync(join(untrusted.target, 'scripts/run.sh'), 'utf8')).toContain('approved');
    expect(untrusted.notStaged.files).toEqual([
      { path: 'linked.txt', reason: 'hard-link' },
      { path: 'pointer.txt', reason: 'symlink' },
    ]);
    const trusted = stage(source, true);
    expect(readFileSync(join(trusted.target, 'linked.txt'), 'utf8')).toBe('SECRET');
    expect(trusted.notStaged.files).toEqual([{ path: 'pointer.txt', reason: 'symlink' }]);
  });

  it('refuses a script that leads outside the skill, or is hard-linked in an untrusted skill', () => {
    const outside = writeTree(tempDir('skillhost-outside-'), { 'run.sh': '#!/bin/sh\n' });
    const source = writeTree(tempDir('skillhost-skill-'), { 'SKILL.md': 'x' });
    mkdirSync(join(source, 'scripts'));
    symlinkSync(join(outside, 'run.sh'), join(source, 'scripts/run.sh'));
    expect(() => stage(source, true)).toThrow(
      expect.objectContaining({ code: 'SCRIPT_NOT_STAGED' }),
    );
    const linked = writeTree(tempDir('skillhost-skill-'), { 'SKILL.md': 'x' });
    mkdirSync(join(linked, 'scripts'));
    linkSync(join(outside, 'run.sh'), join(linked, 'scripts/run.sh'));
    expect(() => stage(linked, false)).toThrow(
      expect.objectContaining({ code: 'RESOURCE_HARD_LINK' }),
    );
    expect(stage(linked, true).notStaged.count).toBe(0);
  });
});
