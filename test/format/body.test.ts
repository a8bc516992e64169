import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkBody,
  countLines,
  estimateTokens,
  findBodyLinks,
  resolveRelativeTarget,
} from '../../src/format/body.js';
import { parseSkill } from '../../src/format/parse.js';

function bodyDiagnostics(body: string, existing: string[] = []) {
  const parsed = parseSkill(`---\nname: demo\ndescription: d\n---\n${body}`, {
    file: 'demo/SKILL.md',
  });
  return checkBody(parsed, { fileExists: (path) => existing.includes(path) });
}

describe('body length', () => {
  it('warns past 500 lines, not at 500', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, index) => `line ${index}`).join('\n');
    expect(bodyDiagnostics(lines(500)).map((d) => d.code)).toEqual([]);
    const diagnostics = bodyDiagnostics(lines(501));
    expect(diagnostics.map((d) => d.code)).toEqual(['BODY_TOO_MANY_LINES']);
    expect(diagnostics[0]?.message).toContain('501 lines');
    expect(diagnostics[0]?.line).toBe(505);
  });

  it('warns past about 5000 tokens', () => {
    // " word" is one token: 4,900 of them are under the limit, 5,100 over.
    expect(bodyDiagnostics('word '.repeat(4900)).map((d) => d.code)).toEqual([]);
    expect(bodyDiagnostics('word '.repeat(5100)).map((d) => d.code)).toEqual([
      'BODY_TOO_MANY_TOKENS',
    ]);
    expect(bodyDiagnostics('字'.repeat(6500)).map((d) => d.code)).toEqual(['BODY_TOO_MANY_TOKENS']);
  });

  it('warns about an empty body', () => {
    expect(bodyDiagnostics('\n  \n').map((d) => d.code)).toEqual(['BODY_EMPTY']);
  });

  it('counts lines without trailing blank lines, and stops at a limit', () => {
    expect(countLines('a\nb\n\n\n')).toBe(2);
    expect(countLines('')).toBe(0);
    expect(countLines('a\n'.repeat(1000), 10)).toBe(11);
    // A word of up to ten letters is a token; a longer one, one per six letters.
    expect(estimateTokens('Extract tables from PDF files')).toBe(5);
    expect(estimateTokens('abcd'.repeat(10))).toBe(7);
    expect(estimateTokens('parseYamlFast(text, 123456)')).toBe(9);
  });
});

describe('resolveRelativeTarget', () => {
  /** The rule with no shortcut: cut the fragment or query, then resolve segment by segment. */
  function reference(target: string): string | undefined | null {
    let value = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
    const cut = value.search(/[#?]/);
    if (cut !== -1) value = value.slice(0, cut);
    if (value === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || /^[/~]/.test(value)) return null;
    let decoded = value;
    try {
      decoded = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {}
    const segments: string[] = [];
    for (const segment of decoded.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (segments.length === 0) return undefined;
        segments.pop();
        continue;
      }
      segments.push(segment);
    }
    return segments.length === 0 ? null : segments.join('/');
  }

  it('resolves every target as the rule without shortcuts does', () => {
    const piece = fc.constantFrom(
      'a',
      'b.md',
      '.',
      '..',
      '',
      'x-y_z',
      '%2e',
      '%',
      'c:',
      '#f',
      '?q',
      '<',
      '>',
      '~',
      'A1',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.constantFrom('/', ''),
        (pieces, separator) => {
          const target = pieces.join(separator === '' ? '/' : separator);
          expect(resolveRelativeTarget(target)).toBe(reference(target));
          const joined = pieces.join('');
          expect(resolveRelativeTarget(joined)).toBe(reference(joined));
        },
      ),
      { numRuns: 5000 },
    );
    expect(resolveRelativeTarget('references/rules.md#naming')).toBe('references/rules.md');
    expect(resolveRelativeTarget('../out.md#x')).toBeUndefined();
  });
});

describe('findBodyLinks against a scan of every position', () => {
  /** The links as one global expression scanning every position finds them. */
  function reference(body: string) {
    const links: Array<{ target: string; path: string | undefined; offset: number }> = [];
    if (!body.includes('](') && !body.includes(']:')) return links;
    const scanner =
      /^ {0,3}(`{3,}|~{3,})|^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)|!?\[(?:[^\]\\\n]|\\.)*\]\([ \t]*(<[^>\n]*>|[^\s)]+)/gm;
    let fence: string | undefined;
    for (let match = scanner.exec(body); match !== null; match = scanner.exec(body)) {
      const fenceText = match[1];
      if (fenceText !== undefined) {
        if (fence === undefined) fence = fenceText.slice(0, 3);
        else if (fenceText.startsWith(fence)) fence = undefined;
        continue;
      }
      if (fence !== undefined) continue;
      const target = (match[2] ?? match[3]) as string;
      const offset = match.index + match[0].length - target.length;
      const lineStart = body.lastIndexOf('\n', offset - 1) + 1;
      const newline = body.indexOf('\n', offset);
      const line = body.slice(lineStart, newline === -1 ? body.length : newline);
      const column = offset - lineStart;
      let inCode = false;
      for (const span of line.matchAll(/(`+)[^`]*?\1/g))
        if (column > span.index && column < span.index + span[0].length) inCode = true;
      if (inCode) continue;
      const path = resolveRelativeTarget(target);
      if (path === null) continue;
      links.push({ target, path, offset });
    }
    return links;
  }

  it('finds the same links in any text of brackets, fences, code and line breaks', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '!',
      '![',
      '](',
      ']:',
      ' ',
      '  ',
      '    ',
      '\n',
      '\r',
      '\r\n',
      '\u2028',
      '`',
      '```',
      '````',
      '~~~',
      'a',
      'b.md',
      '[x](y.md)',
      '![i](img.png)',
      '[r]: z.md',
      '\\',
      '<a b>',
      ':',
      '\t',
      '#',
      'http://h',
      '../up.md',
      '`[c](code.md)`',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const body = pieces.join('');
        expect(findBodyLinks(body)).toEqual(reference(body));
      }),
      { numRuns: 20000 },
    );
  });
});

describe('relative links from the body', () => {
  it('finds inline links, images and reference definitions, not URLs or anchors', () => {
    const body = [
      'See [guide](references/guide.md) and ![logo](assets/logo.png "Logo").',
      '[web](https://example.com) [mail](mailto:a@b.c) [anchor](#steps) [abs](/etc/passwd)',
      '[ref]: references/ref.md',
      'Query [q](references/q.md?x=1#y) and [spaced](<references/my file.md>)',
      'Encoded [e](references/a%20b.md)',
    ].join('\n');
    expect(findBodyLinks(body).map((link) => link.path)).toEqual([
      'references/guide.md',
      'assets/logo.png',
      'references/ref.md',
      'references/q.md',
      'references/my file.md',
      'references/a b.md',
    ]);
  });

  it('ignores links in fenced code blocks and inline code', () => {
    const body = [
      '```md',
      '[x](missing.md)',
      '```',
      '`[y](also-missing.md)`',
      '~~~',
      '[z](z.md)',
      '~~~',
    ].join('\n');
    expect(findBodyLinks(body)).toEqual([]);
  });

  it('reports broken links and links that leave the skill, with positions', () => {
    const diagnostics = bodyDiagnostics(
      '# T\n\nRead [a](references/a.md), [b](references/b.md) and [up](../other/SKILL.md).\n',
      ['references/a.md'],
    );
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['LINK_BROKEN', 7, 32],
      ['LINK_OUTSIDE_SKILL', 7, 58],
    ]);
  });

  it('resolves dot segments inside the skill', () => {
    expect(findBodyLinks('[a](./references/../scripts/run.sh)').map((link) => link.path)).toEqual([
      'scripts/run.sh',
    ]);
    expect(findBodyLinks('[a](references/../../x)')[0]?.path).toBeUndefined();
  });
});
