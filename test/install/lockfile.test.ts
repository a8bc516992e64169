import { describe, expect, it } from 'vitest';
import {
  compareFiles,
  emptyLockfile,
  type LockedSkill,
  parseLockfile,
  serializeLockfile,
  treeDigest,
  withLockedSkill,
} from '../../src/index.js';
import { sha256 } from '../../src/node/hash.js';

const hash = (text: string) => sha256(new TextEncoder().encode(text));
const pdf: LockedSkill = {
  source: {
    type: 'git',
    url: 'https://github.com/acme/skills.git',
    ref: 'main',
    subpath: 'skills',
  },
  commit: 'a'.repeat(40),
  path: 'skills/pdf',
  files: { 'scripts/x.sh': hash('x'), 'SKILL.md': hash('s') },
};

describe('the lockfile', () => {
  it('round-trips, sorted and stable', () => {
    const lock = withLockedSkill(withLockedSkill(emptyLockfile(), 'pdf', pdf), 'zip-tools', {
      source: { type: 'archive', location: 'https://example.com/z.zip' },
      digest: `sha256:${'b'.repeat(64)}`,
      path: '.',
      files: { 'SKILL.md': hash('z') },
    });
    const text = serializeLockfile(lock);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.indexOf('"SKILL.md"')).toBeLessThan(text.indexOf('"scripts/x.sh"'));
    const parsed = parseLockfile(text, 'skills-lock.json');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.lockfile).toEqual(lock);
    expect(serializeLockfile(parsed.lockfile as never)).toBe(text);
    expect(serializeLockfile(withLockedSkill(lock, 'pdf', undefined))).not.toContain('"pdf"');
  });

  it('keeps the valid entries and names the field of each invalid one', () => {
    const text = JSON.stringify({
      version: 1,
      skills: {
        pdf,
        bad: { ...pdf, commit: 'main' },
        evil: { ...pdf, files: { '../../etc/passwd': hash('x') } },
        '../up': pdf,
        weird: { ...pdf, source: { type: 'git', url: '--upload-pack=x' } },
      },
    });
    const parsed = parseLockfile(text, '/p/skills-lock.json');
    expect(Object.keys(parsed.lockfile?.skills ?? {})).toEqual(['pdf']);
    expect(parsed.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      expect.stringContaining('skills["bad"].commit'),
      expect.stringContaining('skills["evil"].files'),
      expect.stringContaining('skills["../up"]'),
      expect.stringContaining('skills["weird"].source'),
    ]);
    expect(parsed.diagnostics.every((diagnostic) => diagnostic.code === 'LOCKFILE_INVALID')).toBe(
      true,
    );
    expect(parsed.diagnostics[0]?.file).toBe('/p/skills-lock.json');
  });

  it('refuses a file that is not JSON or not version 1', () => {
    expect(parseLockfile('{', 'f').lockfile).toBeUndefined();
    expect(parseLockfile('{"version":2,"skills":{}}', 'f').diagnostics[0]?.code).toBe(
      'LOCKFILE_INVALID',
    );
  });

  it('compares files and digests a folder independently of order', () => {
    expect(compareFiles({ a: '1', b: '2', c: '3' }, { b: '2', c: 'x', d: '4' })).toEqual({
      added: ['d'],
      removed: ['a'],
      changed: ['c'],
    });
    expect(treeDigest({ b: hash('b'), a: hash('a') }, sha256)).toBe(
      treeDigest({ a: hash('a'), b: hash('b') }, sha256),
    );
    expect(treeDigest({ a: hash('a') }, sha256)).not.toBe(treeDigest({ a: hash('b') }, sha256));
  });
});
