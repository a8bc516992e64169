import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/node/hash.js';
import { makeTarGz } from '../helpers/archives.js';
import { runCli } from '../helpers/cli.js';
import { git, makeRepository, serveGitHttp } from '../helpers/git.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await (closers.pop() as () => Promise<void>)();
});

/** A project folder (it has .git) and a home, both fresh. */
function world() {
  const project = tempDir('skillhost-project-');
  mkdirSync(join(project, '.git'));
  const home = tempDir('skillhost-home-');
  return { project, home };
}

const SKILLS = {
  'skills/pdf/SKILL.md': skillText(
    'name: pdf\ndescription: Reads PDF files. Use when a PDF is given.\nallowed-tools: Read Bash(sh scripts/extract.sh:*)',
  ),
  'skills/pdf/scripts/extract.sh': 'echo extract\n',
  'skills/csv/SKILL.md': skillText('name: csv\ndescription: Reads CSV files. Use for tables.'),
};

function lock(project: string) {
  return JSON.parse(readFileSync(join(project, 'skills-lock.json'), 'utf8'));
}

function auditEvents(home: string) {
  return readFileSync(join(home, '.skillhost', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('skillhost add', () => {
  it('installs the skills of a local folder into the project, records them and audits each', async () => {
    const { project, home } = world();
    const source = writeTree(tempDir(), SKILLS);
    const run = await runCli(['add', join(source, 'skills'), '--yes'], { cwd: project, home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Found 2 skills');
    expect(run.stdout).toContain('scripts/extract.sh (sh, sha256');
    expect(run.stdout).toContain('allowed-tools: Read Bash(sh scripts/extract.sh:*)');
    expect(readFileSync(join(project, '.agents/skills/pdf/scripts/extract.sh'), 'utf8')).toBe(
      'echo extract\n',
    );
    const recorded = lock(project);
    expect(Object.keys(recorded.skills)).toEqual(['csv', 'pdf']);
    expect(recorded.skills.pdf).toMatchObject({
      source: { type: 'folder', path: join(source, 'skills') },
      path: 'pdf',
      files: {
        'SKILL.md': sha256(readFileSync(join(source, 'skills/pdf/SKILL.md'))),
        'scripts/extract.sh': sha256(Buffer.from('echo extract\n')),
      },
    });
    const installs = auditEvents(home).filter((record) => record.event === 'skill-install');
    expect(installs.map((record) => record.skill_name)).toEqual(['csv', 'pdf']);
    expect(installs[1].details.files['scripts/extract.sh']).toBe(
      recorded.skills.pdf.files['scripts/extract.sh'],
    );
    // Nothing of the staging is left beside the skills.
    expect(readdirSync(join(project, '.agents'))).toEqual(['skills']);
  });

  it('asks at a terminal, and without one refuses naming --yes, installing nothing', async () => {
    const { project, home } = world();
    const source = writeTree(tempDir(), SKILLS);
    const refused = await runCli(['add', join(source, 'skills')], { cwd: project, home });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--yes');
    expect(existsSync(join(project, '.agents/skills'))).toBe(false);
    expect(existsSync(join(project, 'skills-lock.json'))).toBe(false);
    const no = await runCli(['add', join(source, 'skills')], { cwd: project, home, input: ['n'] });
    expect(no.code).toBe(3);
    expect(existsSync(join(project, '.agents/skills/pdf'))).toBe(false);
    const yes = await runCli(['add', join(source, 'skills'), '--skill', 'pdf'], {
      cwd: project,
      home,
      input: ['y'],
    });
    expect(yes.code).toBe(0);
    expect(readdirSync(join(project, '.agents/skills'))).toEqual(['pdf']);
  });

  it('refuses a skill with errors and shows warnings, installing the others', async () => {
    const { project, home } = world();
    const source = writeTree(tempDir(), {
      'good/SKILL.md': skillText(
        'name: good\ndescription: Fine. Use always.\nmetadata: {team: docs}',
      ),
      'Bad_Name/SKILL.md': skillText('name: Bad_Name\ndescription: Broken.'),
    });
    const run = await runCli(['add', source, '--yes'], { cwd: project, home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('NAME_NOT_LOWERCASE');
    expect(run.stdout).toContain('YAML_FLOW_STYLE');
    expect(run.stdout).toMatch(/refused.*strict validation/);
    expect(readdirSync(join(project, '.agents/skills'))).toEqual(['good']);
  });

  it('asks for --project or --user outside a project, and installs for the user with --user', async () => {
    const folder = tempDir();
    const home = tempDir('skillhost-home-');
    const source = writeTree(tempDir(), SKILLS);
    const outside = await runCli(['add', join(source, 'skills'), '--yes'], { cwd: folder, home });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('--user');
    const user = await runCli(
      ['add', join(source, 'skills'), '--yes', '--user', '--skill', 'csv'],
      { cwd: folder, home },
    );
    expect(user.code).toBe(0);
    expect(existsSync(join(home, '.agents/skills/csv/SKILL.md'))).toBe(true);
    expect(
      Object.keys(
        JSON.parse(readFileSync(join(home, '.skillhost/skills-lock.json'), 'utf8')).skills,
      ),
    ).toEqual(['csv']);
    const again = await runCli(
      ['add', join(source, 'skills'), '--yes', '--user', '--skill', 'csv'],
      { cwd: folder, home },
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('skillhost update csv');
  });

  it('installs from a git repository over HTTP at a tag, recording the commit; the skill stays untrusted until trusted', async () => {
    const { project, home } = world();
    const root = tempDir();
    const upstream = makeRepository(root, SKILLS);
    git(upstream, 'tag', 'v1');
    const commit = git(upstream, 'rev-parse', 'HEAD');
    git(upstream, 'clone', '--quiet', '--bare', upstream, join(root, 'served', 'skills.git'));
    const server = await serveGitHttp(join(root, 'served'));
    closers.push(() => server.close());
    await runCli(['trust', project], { cwd: project, home });
    const run = await runCli(
      ['add', `${server.url('skills.git')}#v1:skills`, '--skill', 'pdf', '--yes'],
      {
        cwd: project,
        home,
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`commit ${commit}`);
    expect(run.stdout).toContain('skillhost trust --skill NAME');
    expect(lock(project).skills.pdf).toMatchObject({
      source: { type: 'git', url: server.url('skills.git'), ref: 'v1', subpath: 'skills' },
      commit,
      path: 'skills/pdf',
    });
    // External: listed untrusted, and the model's activation needs a confirmation no one can give here.
    const listed = JSON.parse((await runCli(['list', '--json'], { cwd: project, home })).stdout);
    expect(listed.skills.find((skill: { name: string }) => skill.name === 'pdf')).toMatchObject({
      trust: 'untrusted',
      status: 'active',
    });
    const asked = await runCli(['activate', 'pdf', '--triggered-by', 'model'], {
      cwd: project,
      home,
    });
    expect(asked.code).toBe(3);
    expect(asked.stderr).toContain('PERMISSION_REQUIRED');
    const trusted = await runCli(['trust', '--skill', 'pdf'], { cwd: project, home });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    const activated = await runCli(['activate', 'pdf', '--triggered-by', 'model'], {
      cwd: project,
      home,
    });
    expect(activated.code).toBe(0);
    expect(activated.stdout).toContain('trust="trusted"');
  });

  it('installs from a tarball, recording its digest', async () => {
    const { project, home } = world();
    const folder = tempDir();
    const archive = makeTarGz([
      { name: 'pack/', type: 'directory' },
      {
        name: 'pack/SKILL.md',
        content: skillText('name: packed\ndescription: Packed skill. Use in tests.'),
      },
    ]);
    writeFileSync(join(folder, 'pack.tgz'), archive);
    const run = await runCli(['add', join(folder, 'pack.tgz'), '--yes', '--json'], {
      cwd: project,
      home,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.skills).toEqual([
      expect.objectContaining({ name: 'packed', installed: true, path: '.' }),
    ]);
    expect(lock(project).skills.packed.digest).toBe(`sha256:${sha256(archive)}`);
  });

  it('removes the staging folders of a killed install, never those of a running one', async () => {
    const { project, home } = world();
    const source = tempDir();
    writeTree(source, SKILLS);
    // 2147483646: no process has it; process.ppid runs for as long as this test does.
    writeTree(join(project, '.agents'), {
      '.skillhost-staging-2147483646-aB3d/pdf/SKILL.md': 'half copied',
      [`.skillhost-staging-${process.ppid}-xY9z/csv/SKILL.md`]: 'being copied',
      '.skillhost-staging-legacy/x/SKILL.md': 'no pid',
    });
    const run = await runCli(['add', join(source, 'skills'), '--yes'], { cwd: project, home });
    expect(run.code).toBe(0);
    expect(readdirSync(join(project, '.agents')).sort()).toEqual([
      `.skillhost-staging-${process.ppid}-xY9z`,
      '.skillhost-staging-legacy',
      'skills',
    ]);
  });

  it('refuses a hostile archive as a whole and leaves nothing', async () => {
    const { project, home } = world();
    const folder = tempDir();
    writeFileSync(
      join(folder, 'evil.zip'),
      makeTarGz([{ name: 'x/SKILL.md', content: 'x' }]).subarray(0, 0),
    );
    writeFileSync(
      join(folder, 'evil.tgz'),
      makeTarGz([
        { name: 'x/SKILL.md', content: skillText('name: x\ndescription: X. Use never.') },
        { name: 'x/link', type: 'symlink', linkTarget: '../../../../home' },
      ]),
    );
    const run = await runCli(['add', join(folder, 'evil.tgz'), '--yes'], { cwd: project, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ARCHIVE_LINK_OUTSIDE');
    expect(existsSync(join(project, '.agents'))).toBe(false);
    const empty = await runCli(['add', join(folder, 'evil.zip'), '--yes'], { cwd: project, home });
    expect(empty.stderr).toContain('ARCHIVE_INVALID');
  });
});
