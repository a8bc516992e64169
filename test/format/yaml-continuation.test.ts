import { describe, expect, it } from 'vitest';
import * as yaml from 'yaml';
import { originalOffset, repairQuotedContinuation } from '../../src/format/yaml-continuation.js';
import { parseYamlWithLibrary } from '../../src/format/yaml-library.js';

describe('a quoted value continued at column 0', () => {
  it('is indented past its key, and every offset maps back to the original', () => {
    const source = 'name: x\ndescription: "one\ntwo\n  three"\nlicense: MIT\n';
    const repair = repairQuotedContinuation(source);
    if (repair === undefined) throw new Error('expected a repair');
    expect(repair.text).toBe('name: x\ndescription: "one\n two\n  three"\nlicense: MIT\n');
    expect(repair.key).toBe('description');
    expect(repair.offset).toBe(source.indexOf('two'));
    const shifted = repair.text.indexOf('license');
    expect(originalOffset(repair, shifted)).toBe(source.indexOf('license'));
    expect(originalOffset(repair, 3)).toBe(3);
  });

  it('reads as PyYAML reads it, with a warning at the first such line', () => {
    const source = "description: 'it''s\nfine'\nmetadata:\n  note: \"a\n  b\"\nlicense: MIT";
    const result = parseYamlWithLibrary(source, 10, yaml);
    expect(result.data).toEqual({
      description: "it's fine",
      metadata: { note: 'a b' },
      license: 'MIT',
    });
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'YAML_QUOTED_CONTINUATION',
        severity: 'warning',
        offset: source.indexOf('fine'),
      }),
    ]);
    expect(result.locations.get('license')?.keyOffset).toBe(source.indexOf('license'));
  });

  it('is left alone when the meaning is in doubt', () => {
    // Never closed: the next key would be swallowed.
    expect(repairQuotedContinuation('description: "one\nlicense: MIT\n')).toBeUndefined();
    // Text after the closing quote.
    expect(repairQuotedContinuation('description: "one\ntwo" more\n')).toBeUndefined();
    // A document marker inside.
    expect(repairQuotedContinuation('description: "one\n---\ntwo"\n')).toBeUndefined();
    // Nothing at column 0: no repair to make.
    expect(repairQuotedContinuation('description: "one\n  two"\n')).toBeUndefined();
    const unclosed = parseYamlWithLibrary('description: "one\nlicense: MIT\n', 10, yaml);
    expect(unclosed.data).toBeUndefined();
    expect(unclosed.problems[0]?.code).toBe('YAML_SYNTAX');
  });
});
