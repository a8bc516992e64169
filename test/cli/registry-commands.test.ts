import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

/** A project with one project skill, and a home with one user skill. */
function world() {
  const project = tempDir();
  const home = tempDir();
  writeSkill(join(project, '.agents', 'skills'), 'proj-skill', {
    'references/guide.md': '# Guide\n',
  });
  writeSkill(join(home, '.agents', 'skills'), 'user-skill');
  return { project, home };
}

describe('limits are never silent', () => {
  it('list and to-prompt say when the search stopped at a limit, in text and JSON', async () => {
    const skills = tempDir();
    writeSkill(skills, 'shallow');
    // Depth 7 under a source (the library's limit is 6) and depth 9 under a PATH (the CLI's 8).
    writeSkill(join(skills, 'a/b/c/d/e/f/g'), 'deep');
    writeSkill(join(skills, 'a/b/c/d/e/f/g/h/i'), 'deeper');
    const base = ['--no-default-sources', '--skills', skills];
    const text = await runCli(['list', ...base]);
    expect(text.stdout).toContain('shallow');
    expect(text.stdout).not.toContain('deep ');
    expect(text.stdout).toMatch(/warning WALK_DEPTH_LIMIT: .*6 levels/);
    const json = JSON.parse((await runCli(['list', '--json', ...base])).stdout);
    expect(json.diagnostics.map((item: { code: string }) => item.code)).toContain(
      'WALK_DEPTH_LIMIT',
    );
    const prompt = await runCli(['to-prompt', skills]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('<name>\ndeep\n</name>');
    expect(prompt.stdout).not.toContain('deeper');
    expect(prompt.stderr).toMatch(/warning WALK_DEPTH_LIMIT: .*8 levels/);
  });
});

describe('skillhost list and trust', () => {
  it('shows untrusted project skills until the folder is trusted, then loads them', async () => {
    const { project, home } = world();
    const before = await runCli(['list', '--json'], { cwd: project, home });
    expect(before.code).toBe(0);
    const document = JSON.parse(before.stdout);
    expect(
      document.skills.map((s: { name: string; status: string; trust: string }) => [
        s.name,
        s.status,
        s.trust,
      ]),
    ).toEqual([
      ['proj-skill', 'untrusted', 'untrusted'],
      ['user-skill', 'active', 'trusted'],
    ]);
    expect(document.project).toEqual({
      path: project,
      trusted: false,
      foundBy: 'marker',
      marker: '.agents',
    });
    expect((await runCli(['list'], { cwd: project, home })).stdout).toContain(
      "run 'skillhost trust'",
    );
    const catalog = await runCli(['catalog'], { cwd: project, home });
    expect(catalog.stdout).not.toContain('proj-skill');
    expect((await runCli(['list', '--json', '--trust'], { cwd: project, home })).stdout).toContain(
      '"status": "active"',
    );
    const trust = await runCli(['trust'], { cwd: project, home });
    expect(trust.code).toBe(0);
    const after = JSON.parse((await runCli(['list', '--json'], { cwd: project, home })).stdout);
    expect(after.skills.map((s: { status: string }) => s.status)).toEqual(['active', 'active']);
    expect(
      JSON.parse((await runCli(['trust', '--list', '--json'], { cwd: project, home })).stdout)
        .trustedProjects,
    ).toHaveLength(1);
    await runCli(['trust', '--revoke'], { cwd: project, home });
    expect(
      JSON.parse((await runCli(['list', '--json'], { cwd: project, home })).stdout).project.trusted,
    ).toBe(false);
  });

  it('uses only the given folders with --no-default-sources, and requires one', async () => {
    const { project, home } = world();
    const extra = tempDir();
    writeSkill(extra, 'extra-skill');
    const run = await runCli(['list', '--json', '--no-default-sources', '--skills', extra], {
      cwd: project,
      home,
    });
    expect(JSON.parse(run.stdout).skills.map((s: { name: string }) => s.name)).toEqual([
      'extra-skill',
    ]);
    expect((await runCli(['list', '--no-default-sources'], { cwd: project, home })).code).toBe(2);
  });

  it('reports shadowed copies and addresses them as name@source', async () => {
    const { project, home } = world();
    const untrusted = tempDir();
    writeTree(untrusted, {
      'user-skill/SKILL.md': skillText('name: user-skill\ndescription: An impostor.'),
    });
    const run = await runCli(['list', '--json', '--untrusted-skills', untrusted], {
      cwd: project,
      home,
    });
    const skills = JSON.parse(run.stdout).skills;
    expect(
      skills.find((s: { address: string }) => s.address === 'user-skill@external'),
    ).toMatchObject({
      status: 'shadowed',
      shadowedBy: 'user-skill@user',
    });
    const activated = await runCli(
      ['activate', 'user-skill@external', '--untrusted-skills', untrusted],
      { cwd: project, home },
    );
    expect(activated.stdout).toContain('source="external" trust="untrusted"');
  });

  it('reports an invalid user config with a coded error naming the file', async () => {
    const { project, home } = world();
    writeTree(home, { '.skillhost/config.json': '{ not json' });
    const run = await runCli(['list'], { cwd: project, home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CONFIG_INVALID');
    expect(run.stderr).toContain(join(home, '.skillhost', 'config.json'));
  });

  it('keeps an index cache that is safe to delete, and --no-cache bypasses it', async () => {
    const { project, home } = world();
    const cacheDir = join(home, 'cache');
    await runCli(['list', '--cache-dir', cacheDir], { cwd: project, home });
    writeFileSync(
      join(home, '.agents', 'skills', 'user-skill', 'SKILL.md'),
      skillText('name: user-skill\ndescription: Changed text.'),
    );
    const run = await runCli(['list', '--json', '--cache-dir', cacheDir], { cwd: project, home });
    expect(run.stdout).toContain('Changed text.');
    const noCache = await runCli(
      ['list', '--json', '--no-cache', '--cache-dir', join(home, 'never')],
      { cwd: project, home },
    );
    expect(noCache.code).toBe(0);
    expect((await import('node:fs')).existsSync(join(home, 'never'))).toBe(false);
  });
});

describe('skillhost catalog, activate, route and read', () => {
  it('prints the catalog in each format, and nothing when no skill is usable', async () => {
    const { project, home } = world();
    const xml = await runCli(['catalog', '--trust'], { cwd: project, home });
    expect(xml.stdout).toContain('<available_skills>');
    expect(xml.stdout).toContain('<name>proj-skill</name>');
    const markdown = await runCli(['catalog', '--format', 'markdown'], { cwd: project, home });
    expect(markdown.stdout).toContain('- **user-skill**');
    const json = await runCli(['catalog', '--format', 'json'], { cwd: project, home });
    expect(JSON.parse(json.stdout).skills).toHaveLength(1);
    // --json is --format json, as for every other command: the same document.
    expect((await runCli(['catalog', '--json'], { cwd: project, home })).stdout).toBe(json.stdout);
    expect(
      (await runCli(['catalog', '--json', '--format', 'xml'], { cwd: project, home })).code,
    ).toBe(2);
    const empty = tempDir();
    const none = await runCli(['catalog', '--no-default-sources', '--skills', empty], {
      cwd: project,
      home,
    });
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('No usable skills');
    expect((await runCli(['catalog', '--format', 'yaml'], { cwd: project, home })).code).toBe(2);
  });

  it('fits a budget over many skills, keeps trusted ones first and explains the cut', async () => {
    const { project, home } = world();
    const many = tempDir();
    for (let index = 0; index < 300; index += 1)
      writeSkill(many, `bulk-${String(index).padStart(4, '0')}`);
    const run = await runCli(
      ['catalog', '--json', '--explain', '--budget', '500', '--untrusted-skills', many],
      { cwd: project, home },
    );
    const result = JSON.parse(run.stderr);
    expect(result.tokens).toBeLessThanOrEqual(500);
    // Filled as fully as the tokenizer allows.
    expect(result.tokens).toBeGreaterThanOrEqual(490);
    expect(result.exact).toBe(true);
    expect(result.counts.hidden).toBeGreaterThan(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ search_tool: 'skillhost_search' });
    expect(result.decisions.find((d: { name: string }) => d.name === 'user-skill').level).toBe(
      'full',
    );
    const text = await runCli(
      ['catalog', '--explain', '--budget', '500', '--untrusted-skills', many],
      {
        cwd: project,
        home,
      },
    );
    expect(text.stderr).toMatch(/bulk-0299: hidden: ranked \d+ of \d+ \(untrusted, not used yet\)/);
  });

  it('activates a skill and refuses unknown or unavailable ones', async () => {
    const { project, home } = world();
    const run = await runCli(['activate', 'proj-skill', '--trust'], { cwd: project, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('- references/guide.md');
    const untrusted = await runCli(['activate', 'proj-skill@project'], { cwd: project, home });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('SKILL_UNAVAILABLE');
    const missing = await runCli(['activate', '../../etc/passwd'], { cwd: project, home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SKILL_NOT_FOUND');
  });

  it('routes a task and reads a resource', async () => {
    const { project, home } = world();
    const route = await runCli(['route', '--json', '--trust', 'please do proj skill things'], {
      cwd: project,
      home,
    });
    expect(JSON.parse(route.stdout).ranked[0].name).toBe('proj-skill');
    const mention = await runCli(['route', '--json', 'run $user-skill now'], {
      cwd: project,
      home,
    });
    expect(JSON.parse(mention.stdout).selected).toEqual(['user-skill']);
    const read = await runCli(['read', '--trust', 'proj-skill', 'references/guide.md'], {
      cwd: project,
      home,
    });
    expect(read.stdout).toBe('# Guide\n');
    const refused = await runCli(['read', '--trust', 'proj-skill', '../../../etc/passwd'], {
      cwd: project,
      home,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('RESOURCE_PATH_INVALID');
    expect(refused.stderr).not.toContain('root:');
  });
});
