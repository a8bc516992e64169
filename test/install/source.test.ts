import { describe, expect, it } from 'vitest';
import {
  describeSource,
  isExternalSource,
  parseInstallSource,
  type SourceLookup,
} from '../../src/index.js';

/** A world with one folder and two files; `~` is /home/u. */
const lookup: SourceLookup = {
  kindOf: (path) =>
    path === '/work/skills'
      ? 'directory'
      : ['/work/pack.tgz', '/work/notes.txt'].includes(path)
        ? 'file'
        : undefined,
  resolve: (path) =>
    path.startsWith('/')
      ? path
      : path.startsWith('~/')
        ? `/home/u/${path.slice(2)}`
        : `/work/${path}`,
};
const parse = (text: string) => parseInstallSource(text, lookup);

describe('parseInstallSource', () => {
  it.each([
    ['skills', { type: 'folder', path: '/work/skills' }],
    ['/work/skills', { type: 'folder', path: '/work/skills' }],
    ['pack.tgz', { type: 'archive', location: '/work/pack.tgz' }],
    [
      'pack.tgz#:skills/pdf',
      { type: 'archive', location: '/work/pack.tgz', subpath: 'skills/pdf' },
    ],
    ['acme/skills', { type: 'git', url: 'https://github.com/acme/skills.git' }],
    [
      'acme/skills.git#v1.2',
      { type: 'git', url: 'https://github.com/acme/skills.git', ref: 'v1.2' },
    ],
    [
      'acme/skills:skills/pdf',
      { type: 'git', url: 'https://github.com/acme/skills.git', subpath: 'skills/pdf' },
    ],
    [
      'acme/skills#main:skills/pdf/',
      {
        type: 'git',
        url: 'https://github.com/acme/skills.git',
        ref: 'main',
        subpath: 'skills/pdf',
      },
    ],
    [
      'https://git.example.com/team/skills.git',
      { type: 'git', url: 'https://git.example.com/team/skills.git' },
    ],
    [
      'https://github.com/acme/skills/tree/release/1/skills',
      {
        type: 'git',
        url: 'https://github.com/acme/skills.git',
        ref: 'release',
        subpath: '1/skills',
      },
    ],
    [
      'git@github.com:acme/skills.git#dev',
      { type: 'git', url: 'git@github.com:acme/skills.git', ref: 'dev' },
    ],
    ['git+https://example.com/a.tgz', { type: 'git', url: 'https://example.com/a.tgz' }],
    [
      'file:///srv/repo.git#:skills',
      { type: 'git', url: 'file:///srv/repo.git', subpath: 'skills' },
    ],
    [
      'https://example.com/dl/pack.tar.gz?x=1',
      { type: 'archive', location: 'https://example.com/dl/pack.tar.gz?x=1' },
    ],
    [
      'http://127.0.0.1:8080/p.zip#:a',
      { type: 'archive', location: 'http://127.0.0.1:8080/p.zip', subpath: 'a' },
    ],
  ])('reads %s', (text, expected) => {
    expect(parse(text)).toEqual(expected);
  });

  it.each([
    ['', 'SOURCE_INVALID'],
    ['--upload-pack=touch /tmp/x', 'SOURCE_INVALID'],
    ['ext::sh -c touch% /tmp/pwned', 'SOURCE_INVALID'],
    ['acme/skills#--output=/tmp/x', 'SOURCE_INVALID'],
    ['acme/skills#a..b', 'SOURCE_INVALID'],
    ['acme/skills:../../etc', 'SOURCE_INVALID'],
    ['acme/skills#main:/abs', 'SOURCE_INVALID'],
    ['https://user:secret@example.com/r.git', 'SOURCE_INVALID'],
    ['ftp://example.com/r.git', 'SOURCE_INVALID'],
    ['notes.txt', 'SOURCE_INVALID'],
    ['https://example.com/p.zip#v1', 'SOURCE_INVALID'],
    ['./missing', 'PATH_NOT_FOUND'],
    ['just-a-word', 'SOURCE_INVALID'],
    ['a\nb/c', 'SOURCE_INVALID'],
  ])('refuses %j with %s', (text, code) => {
    expect(() => parse(text)).toThrow(expect.objectContaining({ code }));
  });

  it('describes a source as it can be typed again, and says which are external', () => {
    const source = parse('acme/skills#v1:skills/pdf');
    expect(describeSource(source)).toBe('https://github.com/acme/skills.git#v1:skills/pdf');
    expect(parse(describeSource(source))).toEqual(source);
    expect(isExternalSource(source)).toBe(true);
    expect(isExternalSource(parse('pack.tgz'))).toBe(true);
    expect(isExternalSource(parse('skills'))).toBe(false);
  });
});
