import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../src/format/frontmatter.js';

describe('splitFrontmatter', () => {
  it('splits at the first line that is exactly ---', () => {
    const result = splitFrontmatter('---\nname: a\ndescription: "x --- y"\n---\nBody\n');
    expect(result).toMatchObject({
      ok: true,
      frontmatter: 'name: a\ndescription: "x --- y"\n',
      body: 'Body\n',
      bodyLine: 5,
    });
  });

  it('accepts trailing spaces and CRLF on delimiter lines', () => {
    const result = splitFrontmatter('---  \r\nname: a\r\n---   \r\nBody');
    expect(result).toMatchObject({ ok: true, frontmatter: 'name: a\r\n', body: 'Body' });
  });

  it('does not take a longer dash line or an indented one as the closing delimiter', () => {
    expect(splitFrontmatter('---\na: b\n----\n ---\n')).toMatchObject({
      ok: false,
      code: 'FRONTMATTER_UNCLOSED',
    });
  });

  it('reports an empty file', () => {
    expect(splitFrontmatter('')).toMatchObject({ ok: false, code: 'FILE_EMPTY' });
    expect(splitFrontmatter(' \n\n')).toMatchObject({ ok: false, code: 'FILE_EMPTY' });
  });

  it('requires the first line to be the opening delimiter', () => {
    expect(splitFrontmatter('# Title\n---\na: b\n---\n')).toMatchObject({
      ok: false,
      code: 'FRONTMATTER_MISSING',
    });
    expect(splitFrontmatter('---yaml\na: b\n---\n')).toMatchObject({
      ok: false,
      code: 'FRONTMATTER_MISSING',
    });
    expect(splitFrontmatter('\t---\n')).toMatchObject({ ok: false, code: 'FRONTMATTER_MISSING' });
  });

  it('handles a file that ends right after the closing delimiter', () => {
    expect(splitFrontmatter('---\na: b\n---')).toMatchObject({
      ok: true,
      body: '',
      frontmatter: 'a: b\n',
    });
    expect(splitFrontmatter('---\n---\n')).toMatchObject({ ok: true, frontmatter: '', body: '' });
  });

  it('reports a file that only opens', () => {
    expect(splitFrontmatter('---')).toMatchObject({ ok: false, code: 'FRONTMATTER_UNCLOSED' });
    expect(splitFrontmatter('---\nname: a\n')).toMatchObject({
      ok: false,
      code: 'FRONTMATTER_UNCLOSED',
    });
  });
});

describe('line breaks', () => {
  it('reads lone carriage returns as line breaks, as the reference does', async () => {
    const { parseSkill } = await import('../../src/format/parse.js');
    const parsed = parseSkill('---\rname: demo\rdescription: d\r---\rBody\r', { file: 'f' });
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.frontmatter).toEqual({ name: 'demo', description: 'd' });
    expect(parsed.bodyLine).toBe(5);
  });
});
