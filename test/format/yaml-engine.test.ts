import { describe, expect, it } from 'vitest';
import { parseAgentManifest } from '../../src/agents/manifest.js';
import { parseSkill } from '../../src/format/parse.js';
import { yamlLibrary } from '../helpers/yaml.js';

const plain = '---\nname: demo\ndescription: Plain.\n---\nBody\n';
const needsLibrary = '---\nname: demo\ndescription: "Quoted: yes"\nmetadata: {a: b}\n---\nBody\n';

describe('the YAML library is passed in, never registered', () => {
  it('calls a loader only when a frontmatter needs more than the fast scanner', () => {
    let loads = 0;
    const yaml = () => {
      loads += 1;
      return yamlLibrary;
    };
    expect(parseSkill(plain, { file: 'f' }, { yaml }).frontmatter?.name).toBe('demo');
    expect(loads).toBe(0);
    const parsed = parseSkill(needsLibrary, { file: 'f' }, { yaml });
    expect(loads).toBe(1);
    expect(parsed.frontmatter?.metadata).toEqual({ a: 'b' });
  });

  it('says which option to pass when none is given, with file, line and column', () => {
    const parsed = parseSkill(needsLibrary, { file: 'demo/SKILL.md' });
    expect(parsed.frontmatter).toBeUndefined();
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        code: 'YAML_LIBRARY_MISSING',
        severity: 'error',
        message: expect.stringContaining('yaml option'),
        file: 'demo/SKILL.md',
        line: 2,
        column: 1,
      }),
    ]);
    expect(
      parseAgentManifest('name: a\nskills: [x]\n', 'a/agent.yaml').diagnostics.map((d) => d.code),
    ).toEqual(['YAML_LIBRARY_MISSING']);
    expect(
      parseAgentManifest('name: a\nskills: [x]\n', 'a/agent.yaml', 'a', { yaml: yamlLibrary })
        .manifest?.skills,
    ).toEqual(['x']);
  });
});
