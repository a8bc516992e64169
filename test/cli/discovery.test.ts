import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeSkill } from '../helpers/temp.js';

interface ListedSkill {
  readonly name: string;
  readonly source: string;
  readonly status: string;
  readonly trust: string;
}

async function listed(cwd: string, home: string, extra: readonly string[] = []) {
  const run = await runCli(['list', '--json', ...extra], { cwd, home });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as {
    skills: ListedSkill[];
    project: { path: string; trusted: boolean; foundBy: string; marker?: string };
    sources: Array<{ id: string; label: string }>;
  };
}

describe('discovery where users keep skills', () => {
  it('finds the project root from a sub-folder, says which it used, and --project overrides it', async () => {
    const home = tempDir('skillhost-home-');
    const project = realpathSync(tempDir());
    mkdirSync(join(project, '.git'));
    writeSkill(join(project, '.agents', 'skills'), 'project-skill');
    const deep = join(project, 'src', 'deep', 'er');
    mkdirSync(deep, { recursive: true });

    const untrusted = await listed(deep, home);
    expect(untrusted.project).toEqual({
      path: project,
      trusted: false,
      foundBy: 'marker',
      marker: '.git',
    });
    expect(untrusted.skills.map((skill) => [skill.name, skill.status])).toEqual([
      ['project-skill', 'untrusted'],
    ]);
    // Trusting from the sub-folder trusts the project it belongs to.
    const trust = await runCli(['trust', '--json'], { cwd: deep, home });
    expect(JSON.parse(trust.stdout)).toEqual({ folder: project, trusted: true, changed: true });
    const trusted = await listed(deep, home);
    expect(trusted.skills.map((skill) => [skill.name, skill.status])).toEqual([
      ['project-skill', 'active'],
    ]);
    const text = await runCli(['list'], { cwd: deep, home });
    expect(text.stdout).toContain(
      `Project: ${project} (the nearest folder with .git above the current one; trusted)`,
    );
    // --project names the folder exactly: no search upwards.
    const given = await listed(project, home, ['--project', deep]);
    expect(given.project).toEqual({ path: deep, trusted: true, foundBy: 'option' });
    expect(given.skills).toEqual([]);
  });

  it('takes the nearest marker, and never the home folder (whose .claude holds the user skills)', async () => {
    const home = realpathSync(tempDir('skillhost-home-'));
    writeSkill(join(home, '.claude', 'skills'), 'claude-user-skill');
    mkdirSync(join(home, '.git'));
    const outer = join(home, 'work');
    const inner = join(outer, 'packages', 'app');
    mkdirSync(join(inner, '.agents'), { recursive: true });
    mkdirSync(join(outer, '.claude'), { recursive: true });
    const below = join(inner, 'lib');
    mkdirSync(below);
    expect((await listed(below, home)).project).toMatchObject({ path: inner, marker: '.agents' });
    expect((await listed(join(outer, 'packages'), home)).project).toMatchObject({
      path: outer,
      marker: '.claude',
    });
    const plain = join(home, 'notes');
    mkdirSync(plain);
    const none = await listed(plain, home);
    expect(none.project).toEqual({ path: plain, trusted: false, foundBy: 'cwd' });
    // The home's own folders are user sources, trusted, and not a project.
    expect(none.skills.map((skill) => [skill.name, skill.source, skill.trust])).toEqual([
      ['claude-user-skill', 'user-claude', 'trusted'],
    ]);
  });

  it("discovers the folders of Claude Code, GitHub Copilot, Gemini CLI and Codex with their tool's trust rules", async () => {
    const home = tempDir('skillhost-home-');
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    writeSkill(join(home, '.claude', 'skills'), 'from-claude');
    writeSkill(join(home, '.copilot', 'skills'), 'from-copilot');
    writeSkill(join(home, '.gemini', 'skills'), 'from-gemini');
    writeSkill(join(home, '.codex', 'skills'), 'from-codex');
    writeSkill(join(project, '.github', 'skills'), 'from-github');
    writeSkill(join(project, '.gemini', 'skills'), 'from-project-gemini');
    const before = await listed(project, home);
    const rows = (document: typeof before) =>
      document.skills.map((skill) => [skill.name, skill.source, skill.status]);
    expect(rows(before)).toEqual([
      ['from-claude', 'user-claude', 'active'],
      ['from-codex', 'user-codex', 'active'],
      ['from-copilot', 'user-copilot', 'active'],
      ['from-gemini', 'user-gemini', 'active'],
      ['from-github', 'project-github', 'untrusted'],
      ['from-project-gemini', 'project-gemini', 'untrusted'],
    ]);
    expect(rows(await listed(project, home, ['--trust']))).toContainEqual([
      'from-github',
      'project-github',
      'active',
    ]);

    // Each folder can be switched off in the user config; list --sources says so.
    writeFileSync(
      join(home, '.skillhost', 'config.json'),
      JSON.stringify({ trustedProjects: [], disabledSources: ['user-codex', 'project-github'] }),
    );
    const after = await listed(project, home);
    expect(rows(after).map((row) => row[0])).not.toContain('from-codex');
    expect(rows(after).map((row) => row[0])).not.toContain('from-github');
    const sources = await runCli(['list', '--sources', '--json'], { cwd: project, home });
    const states = Object.fromEntries(
      (
        JSON.parse(sources.stdout).sources as Array<{
          id: string;
          state: string;
          skills: number;
          label: string;
        }>
      ).map((source) => [source.id, [source.label, source.state, source.skills]]),
    );
    expect(states).toMatchObject({
      'user-codex': ['Codex (user)', 'switched off', 0],
      'project-github': ['GitHub Copilot (project)', 'switched off', 0],
      'user-claude': ['Claude Code (user)', 'searched', 1],
      'project-gemini': ['Gemini CLI (project)', 'not trusted', 1],
      'user-skillhost': ['skillhost (user)', 'missing', 0],
    });
    const table = await runCli(['list', '--sources'], { cwd: project, home });
    expect(table.stdout).toMatch(/user-codex\s+Codex \(user\)\s+trusted\s+switched off\s+-/);
    expect(table.stdout).toContain('"disabledSources"');
  });

  it('refuses a config whose disabledSources is not a list of ids, naming the file', async () => {
    const home = tempDir('skillhost-home-');
    mkdirSync(join(home, '.skillhost'));
    writeFileSync(
      join(home, '.skillhost', 'config.json'),
      JSON.stringify({ trustedProjects: [], disabledSources: 'user-codex' }),
    );
    const run = await runCli(['list'], { cwd: tempDir(), home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CONFIG_INVALID');
    expect(run.stderr).toContain('disabledSources must be a list of source ids');
  });
});
