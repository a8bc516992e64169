import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a script against the built skillhost/node entry in a fresh process. */
function probe(directory: string): {
  loadedBefore: boolean;
  loadedAfter: boolean;
  name: string | null;
  codes: string[];
} {
  const script = `
    import { createRequire } from 'node:module';
    const entry = ${JSON.stringify(join(root, 'dist', 'node', 'index.js'))};
    const { readSkill } = await import(entry);
    const cache = createRequire(entry).cache;
    const loaded = () => Object.keys(cache).some((path) => path.includes('/node_modules/yaml/'));
    const loadedBefore = loaded();
    const result = readSkill(${JSON.stringify(directory)});
    console.log(JSON.stringify({ loadedBefore, loadedAfter: loaded(), name: result.skill?.metadata.name ?? null, codes: result.diagnostics.map((d) => d.code) }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe('skillhost/node loads the YAML library lazily', () => {
  it('reads a plain frontmatter without loading it', () => {
    const skills = tempDir();
    writeTree(skills, { 'plain/SKILL.md': skillText('name: plain\ndescription: Plain text.') });
    expect(probe(join(skills, 'plain'))).toEqual({
      loadedBefore: false,
      loadedAfter: false,
      name: 'plain',
      codes: [],
    });
  });

  it('loads it when a frontmatter needs it, and reads the skill', () => {
    const skills = tempDir();
    writeTree(skills, {
      'flow/SKILL.md': skillText(
        'name: flow\ndescription: "Quoted: with \\"escapes\\""\nmetadata: {a: b}',
      ),
    });
    expect(probe(join(skills, 'flow'))).toEqual({
      loadedBefore: false,
      loadedAfter: true,
      name: 'flow',
      codes: ['YAML_FLOW_STYLE'],
    });
  });
});
