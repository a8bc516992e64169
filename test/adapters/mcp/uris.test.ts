import { describe, expect, it } from 'vitest';
import { parseSkillUri, skillUri } from '../../../src/adapters/mcp/uris.js';
import { ESCAPES } from './fixture.js';

describe('skill:// URIs', () => {
  it('reads a file URI into the skill and its path', () => {
    expect(parseSkillUri('skill://hello/references/guide.md')).toEqual({
      ok: true,
      name: 'hello',
      path: 'references/guide.md',
      directory: false,
    });
    expect(parseSkillUri('skill://hello/my%20notes.md')).toMatchObject({
      ok: true,
      path: 'my notes.md',
    });
  });

  it('reads folder URIs', () => {
    expect(parseSkillUri('skill://hello/')).toEqual({
      ok: true,
      name: 'hello',
      path: '',
      directory: true,
    });
    expect(parseSkillUri('skill://hello/references/')).toMatchObject({
      path: 'references',
      directory: true,
    });
  });

  it('refuses every escape as sent, before any normalisation', () => {
    const files = ESCAPES.filter((uri) => !uri.endsWith('/'));
    for (const uri of files) {
      const parsed = parseSkillUri(uri);
      if (parsed.ok) expect(parsed.directory, uri).toBe(true);
      else expect(parsed.reason, uri).not.toBe('');
    }
    expect(parseSkillUri('skill://hello/%E0%A4%A')).toEqual({
      ok: false,
      reason: 'a segment is not valid percent-encoding',
    });
    expect(parseSkillUri(`skill://hello/${'a'.repeat(3000)}`)).toMatchObject({ ok: false });
    expect(parseSkillUri('skill://hello/a\u0000b')).toMatchObject({ ok: false });
  });

  it('writes URIs that read back to the same skill and path', () => {
    for (const [name, path] of [
      ['hello', 'SKILL.md'],
      ['hello', 'references/a b#c?.md'],
      ['hello', 'deep/er/file.txt'],
    ] as const) {
      const uri = skillUri(name, path);
      expect(parseSkillUri(uri)).toEqual({ ok: true, name, path, directory: false });
    }
    expect(skillUri('hello')).toBe('skill://hello/');
    expect(skillUri('hello', 'references/')).toBe('skill://hello/references/');
    expect(parseSkillUri(skillUri('hello', 'references/'))).toMatchObject({ directory: true });
  });
});
