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

/** Runs the built CLI with a preload that reports, at exit, whether the YAML library was loaded. */
function cli(
  args: string[],
  home: string,
): { status: number | null; stdout: string; yaml: boolean } {
  const marker = '__yaml_loaded__';
  const preload = `data:text/javascript,${encodeURIComponent(`
    import { createRequire } from 'node:module';
    const cache = createRequire('/').cache;
    process.on('exit', () => {
      const loaded = Object.keys(cache).some((path) => path.includes('/node_modules/yaml/'));
      process.stderr.write('${marker}' + loaded);
    });
  `)}`;
  const run = spawnSync(
    process.execPath,
    ['--import', preload, join(root, 'dist', 'cli', 'bin.js'), ...args],
    { encoding: 'utf8', env: { ...process.env, SKILLHOST_HOME: home, NO_COLOR: '1' } },
  );
  const at = run.stderr.lastIndexOf(marker);
  if (at === -1) throw new Error(run.stderr);
  return {
    status: run.status,
    stdout: run.stdout,
    yaml: run.stderr.slice(at + marker.length) === 'true',
  };
}

describe('the built CLI loads the YAML library only when a frontmatter needs it', () => {
  const plain = skillText('name: plain\ndescription: Plain text.');
  const flow = skillText('name: flow\ndescription: "Quoted: yes"\nmetadata: {a: b}');
  const commands = (skills: string, agents: string) => ({
    validate: ['validate', skills],
    list: ['list', '--json', '--no-default-sources', '--no-cache', '--skills', skills],
    catalog: ['catalog', '--no-default-sources', '--no-cache', '--skills', skills],
    'to-prompt': ['to-prompt', skills],
    'agent list': [
      'agent',
      'list',
      '--json',
      '--no-default-sources',
      '--skills',
      skills,
      '--agents',
      agents,
    ],
    'agent prompt': [
      'agent',
      'prompt',
      'helper',
      '--no-default-sources',
      '--skills',
      skills,
      '--agents',
      agents,
    ],
  });

  it('reads plain frontmatter (and agent.yaml) with the fast scanner alone', () => {
    const home = tempDir();
    const root = writeTree(tempDir(), {
      'skills/plain/SKILL.md': plain,
      'agents/helper/agent.yaml': 'name: helper\ndescription: Helps.\n',
      'agents/helper/instructions.md': 'Help.\n',
    });
    for (const [name, args] of Object.entries(
      commands(join(root, 'skills'), join(root, 'agents')),
    )) {
      const run = cli(args, home);
      expect([name, run.status, run.yaml]).toEqual([name, 0, false]);
    }
  });

  it('loads it in every command that meets a frontmatter the scanner cannot read', () => {
    const home = tempDir();
    const root = writeTree(tempDir(), {
      'skills/flow/SKILL.md': flow,
      'agents/helper/agent.yaml': 'name: helper\ndescription: "Helps: a lot"\nskills: [flow]\n',
      'agents/helper/instructions.md': 'Help.\n',
    });
    for (const [name, args] of Object.entries(
      commands(join(root, 'skills'), join(root, 'agents')),
    )) {
      const run = cli(args, home);
      expect([name, run.status, run.yaml], run.stdout).toEqual([name, 0, true]);
      // The skill was read, not skipped for want of a library.
      expect(run.stdout, name).not.toContain('YAML_LIBRARY_MISSING');
    }
  });
});
