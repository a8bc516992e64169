import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeMemoryLimit } from '../../src/node/sandbox-memory.js';
import { declaredDependencies } from '../../src/node/skill-dependencies.js';
import {
  copySkillFiles,
  findSkillEnvironment,
  pointerFile,
  skillContentHash,
} from '../../src/node/skill-environment.js';
import { planSkillSetup } from '../../src/node/skill-setup.js';
import { tempDir, writeTree } from '../helpers/temp.js';

function skill(files: Record<string, string>): string {
  return writeTree(tempDir('skillhost-skill-'), { 'SKILL.md': '---\nname: x\n---\n', ...files });
}

describe("a skill's content hash", () => {
  it('changes with any file, its executable bit or a link, not with caches and installed packages', () => {
    const folder = skill({ 'scripts/run.py': 'print(1)\n', 'scripts/requirements.txt': 'a==1\n' });
    const first = skillContentHash(folder);
    writeTree(folder, {
      'scripts/__pycache__/run.cpython-311.pyc': 'bytes',
      'node_modules/x/index.js': '',
      '.git/HEAD': 'ref\n',
      '.venv/bin/python': '',
    });
    expect(skillContentHash(folder)).toBe(first);
    chmodSync(join(folder, 'scripts/run.py'), 0o755);
    const executable = skillContentHash(folder);
    expect(executable).not.toBe(first);
    writeTree(folder, { 'assets/notes.md': 'n\n' });
    const more = skillContentHash(folder);
    expect(more).not.toBe(executable);
    symlinkSync('/etc/hostname', join(folder, 'assets/link'));
    expect(skillContentHash(folder)).not.toBe(more);
  });
});

describe('finding the environment of a run', () => {
  it('is nothing for a skill that declares no dependencies, else used, stale or missing', () => {
    const envs = tempDir('skillhost-envs-');
    expect(findSkillEnvironment(envs, skill({ 'scripts/run.sh': 'echo\n' }))).toBeUndefined();
    const folder = skill({ 'scripts/requirements.txt': 'a==1\n', 'scripts/package.json': '{}' });
    const missing = findSkillEnvironment(envs, folder);
    expect(missing).toMatchObject({ status: 'missing', kinds: ['python', 'node'] });
    const hash = missing?.contentHash as string;
    // Made for this content: used (once its marker is written, last).
    mkdirSync(join(envs, hash));
    expect(findSkillEnvironment(envs, folder)?.status).toBe('missing');
    writeFileSync(join(envs, hash, 'skillhost-env.json'), '{}');
    mkdirSync(join(envs, 'skills'));
    writeFileSync(pointerFile(envs, folder), JSON.stringify({ contentHash: hash }));
    expect(findSkillEnvironment(envs, folder)).toMatchObject({
      status: 'used',
      folder: join(envs, hash),
    });
    // The skill changed since: that environment is stale.
    writeTree(folder, { 'scripts/requirements.txt': 'a==2\n' });
    expect(findSkillEnvironment(envs, folder)?.status).toBe('stale');
  });
});

describe('the copy the installers run in', () => {
  it('holds regular files and folders only: no links, no installer configuration', () => {
    const folder = skill({
      'scripts/package.json': '{}',
      'scripts/.npmrc': '//registry/:_authToken=SECRET\n',
      'scripts/vendor/a.tgz': 'tarball',
    });
    symlinkSync('/etc/passwd', join(folder, 'scripts/passwd'));
    const copy = join(tempDir('skillhost-copy-'), 'skill');
    expect(copySkillFiles(folder, copy).sort()).toEqual([
      'SKILL.md',
      'scripts/package.json',
      'scripts/vendor/a.tgz',
    ]);
  });
});

describe('what setup refuses to install', () => {
  const refusals: Array<[string, Record<string, string>, string]> = [
    ['an editable install', { 'scripts/requirements.txt': 'a==1\n-e .\n' }, 'requirements.txt:2'],
    [
      'a version-control requirement',
      { 'scripts/requirements.txt': 'pkg @ git+https://example.com/pkg\n' },
      'requirements.txt:1',
    ],
    [
      'a source folder',
      { 'scripts/requirements.txt': './src\n' },
      'pip would build it from source',
    ],
    [
      'a source archive URL',
      { 'scripts/requirements.txt': 'https://example.com/pkg-1.0.tar.gz\n' },
      'not a wheel',
    ],
    ['--no-binary', { 'scripts/requirements.txt': '--no-binary :all:\na\n' }, 'source builds'],
    [
      'an included file that does',
      { 'scripts/requirements.txt': '-r more.txt\n', 'scripts/more.txt': 'b\n-e ../lib\n' },
      'scripts/more.txt:2',
    ],
    [
      'an included file outside the skill',
      { 'scripts/requirements.txt': '-r ../../outside.txt\n' },
      'outside the skill',
    ],
    [
      'a git dependency',
      { 'scripts/package.json': '{"dependencies":{"a":"github:user/a"}}' },
      'a git dependency',
    ],
    [
      "GitHub's shorthand",
      { 'scripts/package.json': '{"dependencies":{"a":"user/a#v1"}}' },
      'a git dependency',
    ],
    ['a package.json that is no object', { 'scripts/package.json': '[1]' }, 'not a JSON object'],
  ];
  for (const [what, files, says] of refusals) {
    it(`refuses ${what}`, () => {
      const folder = skill(files);
      const kinds = 'scripts/package.json' in files ? ['node' as const] : ['python' as const];
      expect(() => declaredDependencies(folder, kinds, false)).toThrow(
        expect.objectContaining({ code: 'SETUP_REFUSED', message: expect.stringContaining(says) }),
      );
    });
  }

  it('takes wheels, registry packages, options and includes, and everything with --allow-scripts', () => {
    const folder = skill({
      'scripts/requirements.txt':
        '# comment\nnumpy>=1.26 ; python_version >= "3.10"\n./wheels/a-1.0-py3-none-any.whl\n--index-url https://mirror.example/simple\n-r more.txt\n',
      'scripts/more.txt': 'b==2 \\\n  --hash=sha256:00\n',
      'scripts/package.json':
        '{"dependencies":{"left-pad":"^1.3.0","local":"file:vendor/x.tgz","@scope/pkg":"2"}}',
    });
    const declared = declaredDependencies(folder, ['python', 'node'], false);
    expect(declared.python).toEqual([
      'numpy>=1.26 ; python_version >= "3.10"',
      './wheels/a-1.0-py3-none-any.whl',
      '--index-url https://mirror.example/simple',
      'b==2   --hash=sha256:00',
    ]);
    expect(declared.node?.packages).toEqual([
      'left-pad@^1.3.0',
      'local@file:vendor/x.tgz',
      '@scope/pkg@2',
    ]);
    expect(Object.keys(declared.files).sort()).toEqual([
      'scripts/more.txt',
      'scripts/package.json',
      'scripts/requirements.txt',
    ]);
    const risky = skill({ 'scripts/requirements.txt': '-e .\n' });
    expect(declaredDependencies(risky, ['python'], true).python).toEqual(['-e .']);
  });

  it('plans pip with wheels only and npm without scripts, from the offline options', () => {
    const folder = skill({ 'scripts/requirements.txt': 'a==1\n', 'scripts/package.json': '{}' });
    const envs = tempDir('skillhost-envs-');
    const plan = planSkillSetup(folder, {
      environments: envs,
      env: { PATH: process.env.PATH },
      offline: true,
      registry: 'http://127.0.0.1:4873',
    });
    expect(plan?.state).toBe('missing');
    const [venv, pip, npm] = plan?.commands.map((command) => command.argv.slice(1)) ?? [];
    expect(venv?.slice(0, 2)).toEqual(['-m', 'venv']);
    expect(pip).toEqual(expect.arrayContaining(['--only-binary', ':all:', '--no-index']));
    expect(npm).toEqual([
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--offline',
      '--registry',
      'http://127.0.0.1:4873',
    ]);
    expect(planSkillSetup(skill({ 'scripts/run.sh': '' }), { environments: envs, env: {} })).toBe(
      undefined,
    );
  });
});

describe('how memory is limited', () => {
  function facts(mountinfo: string, cgroup: string, controllers?: string) {
    const folder = tempDir('skillhost-cgroup-');
    writeTree(folder, { mountinfo, cgroup });
    if (controllers !== undefined) writeTree(folder, { 'fs/app/cgroup.controllers': controllers });
    return {
      files: { mountinfo: join(folder, 'mountinfo'), cgroup: join(folder, 'cgroup') },
      point: join(folder, 'fs'),
    };
  }
  const line = (point: string, type: string, options = 'rw', superOptions = 'rw') =>
    `41 31 0:38 / ${point} ${options},relatime - ${type} ${type} ${superOptions}\n`;

  it('is the data segment, with the reason the machine gives no cgroup limit', () => {
    const none = facts(line('/proc', 'proc'), '0::/\n');
    expect(probeMemoryLimit(none.files)).toEqual({
      method: 'data-segment',
      reason: 'no cgroup v2 hierarchy is mounted here',
    });
    const hybrid = facts('', '0::/app\n', 'cpu io');
    const v1 = `${line(hybrid.point, 'cgroup2')}${line('/sys/fs/cgroup/memory', 'cgroup', 'rw', 'rw,memory')}`;
    writeTree(hybrid.files.mountinfo.replace(/mountinfo$/, ''), { mountinfo: v1 });
    expect(probeMemoryLimit(hybrid.files).reason).toBe(
      'the memory controller is held by a cgroup v1 hierarchy (/sys/fs/cgroup/memory), not cgroup v2',
    );
    const readOnly = facts('', '0::/app\n', 'cpu memory pids');
    writeTree(readOnly.files.mountinfo.replace(/mountinfo$/, ''), {
      mountinfo: line(readOnly.point, 'cgroup2', 'ro'),
    });
    expect(probeMemoryLimit(readOnly.files).reason).toContain('is mounted read-only');
    const offered = facts('', '0::/app\n', 'memory');
    writeTree(offered.files.mountinfo.replace(/mountinfo$/, ''), {
      mountinfo: line(offered.point, 'cgroup2'),
    });
    expect(probeMemoryLimit(offered.files)).toMatchObject({ method: 'data-segment' });
    expect(probeMemoryLimit(offered.files).reason).toContain(
      `a cgroup v2 memory controller is offered to this process's group (${offered.point}/app)`,
    );
  });
});
