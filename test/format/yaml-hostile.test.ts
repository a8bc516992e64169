import { beforeEach, describe, expect, it } from 'vitest';
import * as yaml from 'yaml';
import { DEFAULT_READ_LIMITS } from '../../src/format/limits.js';
import { parseSkill } from '../../src/format/parse.js';
import { validateSkill } from '../../src/format/validate.js';
import type { YamlEngine } from '../../src/format/yaml-engine.js';
import { parseYamlFast } from '../../src/format/yaml-fast.js';

/**
 * The work the parser asks of the YAML library, counted on the library itself: documents parsed,
 * nodes the frontmatter builder visits (it asks `isAlias` once per node), and whole-document
 * conversions (`toJS`, `toJSON`, `toString`: the paths that expand aliases or stringify keys).
 */
const work = { documents: 0, visits: 0, conversions: 0 };

const countingEngine: YamlEngine = {
  parseDocument: ((source: string, options?: yaml.ParseOptions & yaml.DocumentOptions) => {
    work.documents += 1;
    const document = yaml.parseDocument(source, options);
    for (const method of ['toJS', 'toJSON', 'toString'] as const) {
      const original = document[method].bind(document) as (...args: unknown[]) => unknown;
      Object.defineProperty(document, method, {
        value: (...args: unknown[]) => {
          work.conversions += 1;
          return original(...args);
        },
      });
    }
    return document;
  }) as YamlEngine['parseDocument'],
  isAlias: ((node: unknown) => {
    work.visits += 1;
    return yaml.isAlias(node);
  }) as YamlEngine['isAlias'],
  isMap: yaml.isMap,
  isScalar: yaml.isScalar,
  isSeq: yaml.isSeq,
};

beforeEach(() => {
  Object.assign(work, { documents: 0, visits: 0, conversions: 0 });
});

function parse(frontmatter: string) {
  return parseSkill(
    `---\n${frontmatter}\n---\nBody\n`,
    { file: 'x/SKILL.md', directoryName: 'x' },
    { yaml: countingEngine },
  );
}

function codes(frontmatter: string): string[] {
  return parse(frontmatter).diagnostics.map((diagnostic) => diagnostic.code);
}

describe('YAML attacks are refused with a code, with bounded work, without a crash', () => {
  it('rejects a billion-laughs alias bomb without expanding it', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 10; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    lines.push('name: x', 'description: y');
    const parsed = parse(lines.join('\n'));
    expect(parsed.frontmatter).toBeUndefined();
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'YAML_ANCHOR_OR_ALIAS', line: 2 });
    // Written: 12 keys, 10 lists and 90 items; expanded, the last list alone is 9^10 strings.
    expect(work.documents).toBe(1);
    expect(work.visits).toBeLessThanOrEqual(12 + 10 + 90);
    expect(work.conversions).toBe(0);
  });

  it('rejects anchors and aliases in any position', () => {
    expect(codes('name: &n x\ndescription: y')).toContain('YAML_ANCHOR_OR_ALIAS');
    expect(codes('name: x\ndescription: *d')).toContain('YAML_ANCHOR_OR_ALIAS');
    expect(codes('a: &x y\nb: *x\nname: x\ndescription: y')).toContain('YAML_ANCHOR_OR_ALIAS');
  });

  it('rejects tags, including code-executing ones', () => {
    expect(codes('name: !!js/function "function(){}"\ndescription: y')).toEqual(['YAML_TAG']);
    expect(codes('name: !custom x\ndescription: y')).toEqual(['YAML_TAG']);
    expect(codes('name: !!str x\ndescription: y')).toEqual(['YAML_TAG']);
  });

  it('rejects directives', () => {
    expect(codes('%YAML 1.2\nname: x')).toEqual(['YAML_DIRECTIVE']);
    expect(codes('%TAG !e! tag:evil.example,2000:\nname: x')).toEqual(['YAML_DIRECTIVE']);
  });

  it('rejects extreme flow nesting, building no deeper than the depth limit', () => {
    const deep = `name: ${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const result = codes(deep);
    expect(result).toHaveLength(1);
    expect(['YAML_TOO_DEEP', 'YAML_SYNTAX']).toContain(result[0]);
    expect(work.documents).toBe(1);
    expect(work.visits).toBeLessThanOrEqual(DEFAULT_READ_LIMITS.maxYamlDepth + 2);
    expect(work.conversions).toBe(0);
  });

  it('rejects nesting past the depth limit', () => {
    let nested = 'a:';
    for (let level = 1; level <= 40; level += 1) nested += `\n${'  '.repeat(level)}k${level}:`;
    nested += ' leaf';
    expect(codes(nested)).toContain('YAML_TOO_DEEP');
    expect(codes('a: [[[[x]]]]\nname: x\ndescription: y')).not.toContain('YAML_TOO_DEEP');
  });

  it('handles deeply nested complex keys without the slow stringify path', () => {
    const result = codes(`a:\n${'? '.repeat(2000)}x`);
    expect(result.length).toBeGreaterThan(0);
    for (const code of result)
      expect(['YAML_TOO_DEEP', 'YAML_COMPLEX_KEY', 'YAML_SYNTAX']).toContain(code);
    // The keys are never stringified: no conversion of the document, no walk past the depth limit.
    expect(work.documents).toBe(1);
    expect(work.conversions).toBe(0);
    expect(work.visits).toBeLessThanOrEqual(DEFAULT_READ_LIMITS.maxYamlDepth + 2);
  });

  it('keeps __proto__ a plain key and pollutes nothing', () => {
    const parsed = parse(
      'name: x\ndescription: y\n__proto__:\n  polluted: yes\nmetadata:\n  __proto__: z',
    );
    expect(Object.getPrototypeOf(parsed.frontmatter)).toBeNull();
    expect(Object.keys(parsed.frontmatter ?? {})).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const strict = validateSkill(parsed, { mode: 'strict' }).map((diagnostic) => diagnostic.code);
    expect(strict).toContain('FIELD_UNKNOWN');
  });

  it('gives mappings without a prototype on the fast path too, and leaves __proto__ to the library', () => {
    const fast = parseYamlFast('name: x\ndescription: y\nmetadata:\n  author: z\n');
    expect(fast?.fast).toBe(true);
    const data = (fast?.data ?? {}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBeNull();
    expect(Object.getPrototypeOf(data.metadata)).toBeNull();
    expect(parseYamlFast('name: x\n__proto__: y\n')).toBeUndefined();
    expect(parseYamlFast('metadata:\n  __proto__: y\n')).toBeUndefined();
    // A key named like an inherited property is a key like any other.
    expect(parseYamlFast('constructor: x\ntoString: y\n')?.data).toEqual(
      Object.assign(Object.create(null), { constructor: 'x', toString: 'y' }),
    );
  });

  it('rejects duplicate keys at any level', () => {
    expect(codes('name: x\nname: y')).toEqual(['YAML_DUPLICATE_KEY']);
    expect(codes('metadata:\n  a: 1\n  a: 2')).toEqual(['YAML_DUPLICATE_KEY']);
  });

  it('rejects complex keys and multiple documents', () => {
    expect(codes('? [a, b]\n: c\nname: x')).toContain('YAML_COMPLEX_KEY');
    expect(codes('name: x\n...\ndescription: y')).toContain('YAML_SYNTAX');
  });

  it('requires a mapping', () => {
    expect(codes('- a\n- b')).toEqual(['FRONTMATTER_NOT_MAPPING']);
    expect(codes('just text')).toEqual(['FRONTMATTER_NOT_MAPPING']);
    expect(codes('# only a comment')).toEqual(['FRONTMATTER_NOT_MAPPING']);
  });

  it('reads every scalar as text (failsafe schema)', () => {
    const parsed = parse(
      'name: x\ndescription: y\nmetadata:\n  version: 1.0\n  on: yes\n  nothing: null\n  date: 2024-01-01',
    );
    expect(parsed.frontmatter?.metadata).toEqual({
      version: '1.0',
      on: 'yes',
      nothing: 'null',
      date: '2024-01-01',
    });
  });

  it('caps the frontmatter size before parsing', () => {
    const big = `name: x\ndescription: ${'a'.repeat(70 * 1024)}`;
    expect(codes(big)).toEqual(['FRONTMATTER_TOO_LARGE']);
    const small = parseSkill(
      `---\nname: x\ndescription: ${'a'.repeat(200)}\n---\n`,
      { file: 'f' },
      { limits: { maxFrontmatterBytes: 100 }, yaml: countingEngine },
    );
    expect(small.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'FRONTMATTER_TOO_LARGE',
    ]);
  });

  it('gives YAML errors a line and column in the file', () => {
    const parsed = parse('name: x\ndescription: Optimize links: site architecture');
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'YAML_SYNTAX', line: 3 });
    expect(parsed.diagnostics[0]?.column).toBeGreaterThan(1);
  });
});
