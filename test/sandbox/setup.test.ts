import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSkillSetup, planSkillSetup } from '../../src/node/skill-setup.js';
import { runCli } from '../helpers/cli.js';
import { skillDir, world } from '../helpers/runtime.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

// skillhost setup against the real installers and the real sandbox: pip from a folder of wheels
// made here, npm from a tarball npm pack made here, offline; then runs that use them.

const isRoot = process.getuid?.() === 0;

/**
 * A wheel of a pure-Python package, written as the wheel format says (a zip with the package
 * and its .dist-info), so that no build tool is needed.
 */
function makeWheel(folder: string, name: string, value: string): string {
  const script = [
    'import sys, zipfile',
    'folder, name, value = sys.argv[1:4]',
    'info = f"{name}-1.0.0.dist-info"',
    'files = {',
    '  f"{name}/__init__.py": f"VALUE = {value!r}\\n",',
    '  f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0.0\\n",',
    '  f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",',
    '}',
    'files[f"{info}/RECORD"] = "".join(f"{path},,\\n" for path in files) + f"{info}/RECORD,,\\n"',
    'with zipfile.ZipFile(f"{folder}/{name}-1.0.0-py3-none-any.whl", "w") as archive:',
    '  for path, text in files.items(): archive.writestr(path, text)',
  ].join('\n');
  execFileSync('python3', ['-c', script, folder, name, value]);
  return folder;
}

/** A user's environment for the installers: PATH, a home of the test's own, no pip config. */
function userEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PIP_CONFIG_FILE: '/dev/null' };
}

function project(files: Record<string, string>) {
  const folder = writeTree(tempDir('skillhost-project-'), {
    'data/rows.csv': 'a\nb\nc\n',
    '.agents/skills/tables/SKILL.md': skillText(
      'name: tables\ndescription: Summarises tables. Use for tests.',
    ),
    ...Object.fromEntries(
      Object.entries(files).map(([path, text]) => [`.agents/skills/tables/${path}`, text]),
    ),
  });
  chmodSync(folder, 0o755);
  return {
    folder,
    skill: join(folder, '.agents/skills/tables'),
    base: ['--no-default-sources', '--skills', join(folder, '.agents/skills')],
  };
}

// Building a venv runs pip (seconds on a quiet machine, over half a minute on a loaded one).
const PIP_TIMEOUT = 120_000;

describe('skillhost setup for Python', { timeout: PIP_TIMEOUT }, () => {
  const files = {
    'scripts/requirements.txt': '# the tables package\ntabletoolz==1.0.0\n',
    'scripts/summary.py': [
      '#!/usr/bin/env python3',
      'import os, sys, tabletoolz',
      'rows = open(sys.argv[1]).read().splitlines()',
      'print(tabletoolz.VALUE, len(rows), "rows as uid", os.getuid())',
    ].join('\n'),
    'scripts/summary.sh': '#!/bin/sh\npython3 -c "import tabletoolz; print(tabletoolz.VALUE)"\n',
  };

  it('builds a venv from a local folder of wheels, offline, after asking; runs then use it', async () => {
    const home = tempDir('skillhost-home-');
    const wheels = makeWheel(tempDir('skillhost-wheels-'), 'tabletoolz', 'from the wheel');
    const { folder, skill, base } = project(files);
    const options = { home, cwd: folder, runner: 'bubblewrap' as const, env: userEnv(home) };
    const envs = join(home, '.skillhost/envs');

    // Before setup: the module is missing, and the hint names skillhost setup.
    const before = await runCli(
      ['run', ...base, '--yes', 'tables', 'scripts/summary.py', '--', 'data/rows.csv'],
      options,
    );
    expect(before.code).toBe(1);
    expect(before.stderr).toContain("No module named 'tabletoolz'");
    expect(before.stderr).toContain(
      'hint: the module tabletoolz is not installed: this skill declares its packages in scripts/requirements.txt; install them once with skillhost setup tables',
    );

    // Without a terminal and without --yes: refused, naming --yes; nothing is made.
    const refused = await runCli(['setup', ...base, '--find-links', wheels, 'tables'], options);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('PERMISSION_REQUIRED');
    expect(refused.stderr).toContain('skillhost setup tables --yes');
    expect(existsSync(envs)).toBe(false);
    // At the terminal, no means no.
    const no = await runCli(['setup', ...base, '--find-links', wheels, 'tables'], {
      ...options,
      input: ['n'],
    });
    expect(no.code).toBe(3);
    expect(no.stdout).toContain('tabletoolz==1.0.0');
    expect(existsSync(envs)).toBe(false);

    const setup = await runCli(['setup', ...base, '--find-links', wheels, 'tables'], {
      ...options,
      input: ['y'],
    });
    expect(setup.stderr).toContain('Successfully installed tabletoolz-1.0.0');
    expect(setup.code).toBe(0);
    // What it showed: the packages, and exactly what runs, wheels only, no index.
    expect(setup.stdout).toContain(
      'Python packages (scripts/requirements.txt):\n  tabletoolz==1.0.0\n',
    );
    expect(setup.stdout).toMatch(/\$ \S+python\S* -m venv \S+\/venv\n/);
    expect(setup.stdout).toContain(
      `-m pip install --no-input --disable-pip-version-check --no-warn-script-location --only-binary :all: --find-links ${wheels} --no-index -r requirements.txt`,
    );
    expect(setup.stdout).toContain('Package scripts: not run');
    const [hash] = readdirSync(envs).filter((name) => name !== 'skills');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(envs, hash as string, 'skillhost-env.json'))).toBe(true);
    // The skill itself is untouched.
    expect(readdirSync(join(skill, 'scripts')).sort()).toEqual([
      'requirements.txt',
      'summary.py',
      'summary.sh',
    ]);

    // The audit log: the commands, approved before they ran, then each one's outcome.
    const audit = readFileSync(join(home, '.skillhost/audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((record) => record.event === 'environment-setup');
    expect(audit.map((record) => record.details.phase)).toEqual(['approve', 'end']);
    expect(audit[0]).toMatchObject({
      skill_name: 'tables',
      content_hash: hash,
      details: { approved_by: 'user', scripts: 'not-run' },
    });
    expect(audit[0].tool_or_script_calls[1].args).toContain('--only-binary');
    expect(
      audit[1].tool_or_script_calls.map((call: { exit_code: number }) => call.exit_code),
    ).toEqual([0, 0]);

    // A run now imports it, from a Python script and through a shell script's python3.
    const after = await runCli(
      ['run', ...base, '--yes', 'tables', 'scripts/summary.py', '--', 'data/rows.csv'],
      options,
    );
    expect(after.stderr).toContain('packages from skillhost setup');
    expect(after.stdout).toMatch(/^from the wheel 3 rows as uid \d+\n$/);
    expect(after.code).toBe(0);
    const shell = await runCli(['run', ...base, '--yes', 'tables', 'scripts/summary.sh'], options);
    expect(shell.stdout).toBe('from the wheel\n');

    // sandbox explain says the environment is used, read-only, and how memory is limited.
    const explained = await runCli(
      ['sandbox', 'explain', ...base, '--json', 'tables', 'scripts/summary.py'],
      options,
    );
    const plan = JSON.parse(explained.stdout);
    expect(plan.dependencies).toMatchObject({
      status: 'used',
      contentHash: hash,
      kinds: ['python'],
    });
    expect(plan.interpreter).toBe(join(envs, hash as string, 'venv/bin/python'));
    expect(plan.mounts).toContainEqual(
      expect.objectContaining({ kind: 'ro', path: join(envs, hash as string, 'venv') }),
    );
    expect(plan.memory).toMatchObject({ method: 'data-segment', bytes: 2 * 1024 ** 3 });
    const text = await runCli(
      ['sandbox', 'explain', ...base, 'tables', 'scripts/summary.py'],
      options,
    );
    expect(text.stdout).toContain(
      `dependencies (scripts/requirements.txt): the environment skillhost setup made for this content, ${join(envs, hash as string)}, read-only`,
    );
    expect(text.stdout).toMatch(
      /\nmemory: the data segment of each process, at most 2 GiB \(--memory\); no cgroup limit: .+\n/,
    );

    // Set up again: nothing to do. A changed skill: the environment is not used, and the run says so.
    const again = await runCli(['setup', ...base, '--yes', 'tables'], options);
    expect(again.stdout).toContain('is set up for its exact content');
    writeTree(skill, { 'scripts/notes.txt': 'changed\n' });
    const stale = await runCli(
      ['run', ...base, '--yes', 'tables', 'scripts/summary.py', '--', 'data/rows.csv'],
      options,
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      'hint: the skill changed since skillhost setup prepared its packages, so that environment was not used: run skillhost setup tables again',
    );
    const renewed = await runCli(
      ['setup', ...base, '--yes', '--find-links', wheels, 'tables'],
      options,
    );
    expect(renewed.code).toBe(0);
    expect(renewed.stdout).toContain('the skill changed since its last setup');
    // The environment of the earlier content is gone; the new one is used.
    expect(readdirSync(envs).filter((name) => name !== 'skills')).toHaveLength(1);
    expect(existsSync(join(envs, hash as string))).toBe(false);
    const fresh = await runCli(
      ['run', ...base, '--yes', 'tables', 'scripts/summary.py', '--', 'data/rows.csv'],
      options,
    );
    expect(fresh.stdout).toContain('from the wheel 3 rows');
  });

  it('fails without a wheel, keeps nothing, and says what to do', async () => {
    const home = tempDir('skillhost-home-');
    const wheels = tempDir('skillhost-wheels-');
    const { folder, base } = project(files);
    const failed = await runCli(['setup', ...base, '--yes', '--find-links', wheels, 'tables'], {
      home,
      cwd: folder,
      env: userEnv(home),
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('SETUP_FAILED');
    expect(failed.stderr).toContain('pip installs wheels only');
    const envs = join(home, '.skillhost/envs');
    expect(readdirSync(envs).filter((name) => name !== 'skills')).toEqual([]);
    const audit = readFileSync(join(home, '.skillhost/audit.jsonl'), 'utf8');
    expect(audit).toContain('"code":"SETUP_FAILED"');
  });

  it('refuses what would run package code, naming the file and line, unless --allow-scripts', async () => {
    const home = tempDir('skillhost-home-');
    const { folder, base } = project({
      ...files,
      'scripts/requirements.txt': 'tabletoolz==1.0.0\n-e ./src\n',
    });
    const refused = await runCli(['setup', ...base, '--yes', 'tables'], {
      home,
      cwd: folder,
      env: userEnv(home),
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      'SETUP_REFUSED: scripts/requirements.txt:2: -e ./src is an editable install',
    );
    expect(refused.stderr).toContain('--allow-scripts');
    expect(existsSync(join(home, '.skillhost/envs'))).toBe(false);
  });
});

describe('the library', { timeout: PIP_TIMEOUT }, () => {
  it("plans and builds a skill's environment; a model's run_skill_script call then uses it", async () => {
    const wheels = makeWheel(tempDir('skillhost-wheels-'), 'tabletoolz', 'through the tool');
    const environments = join(tempDir('skillhost-envs-'), 'envs');
    const w = world({
      runner: 'bubblewrap',
      environments,
      answers: ['yes'],
      files: {
        'scripts/requirements.txt': 'tabletoolz==1.0.0\n',
        'scripts/use.py': '#!/usr/bin/env python3\nimport tabletoolz\nprint(tabletoolz.VALUE)\n',
      },
    });
    const options = {
      environments,
      env: { PATH: '/usr/bin:/bin', HOME: w.home, PIP_CONFIG_FILE: '/dev/null' },
      findLinks: wheels,
    };
    const plan = planSkillSetup(skillDir(w), options);
    expect(plan?.state).toBe('missing');
    const outputs: string[] = [];
    const built = await buildSkillSetup(plan as NonNullable<typeof plan>, {
      env: options.env,
      onOutput: (text) => outputs.push(text),
    });
    expect(built.steps.map((step) => step.exitCode)).toEqual([0, 0]);
    expect(outputs.join('')).toContain('Successfully installed tabletoolz-1.0.0');
    expect(planSkillSetup(skillDir(w), options)?.state).toBe('ready');
    await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    const call = await w.runtime.callTool('run_skill_script', {
      name: 'tool',
      script: 'scripts/use.py',
    });
    expect(call.isError).not.toBe(true);
    expect(call.text).toContain('through the tool');
  });
});

describe.runIf(isRoot)('skillhost setup as root', { timeout: PIP_TIMEOUT }, () => {
  it('runs scripts as nobody when nobody can reach the environment, as root without capabilities when not', async () => {
    const wheels = makeWheel(tempDir('skillhost-wheels-'), 'tabletoolz', 'as root');
    const { folder, base } = project({
      'scripts/requirements.txt': 'tabletoolz==1.0.0\n',
      'scripts/who.py':
        '#!/usr/bin/env python3\nimport os, tabletoolz\nprint(tabletoolz.VALUE, os.getuid())\n',
    });
    // A home nobody can search (as root's own is): the run is root's, mapped, without capabilities.
    const privateHome = tempDir('skillhost-home-');
    chmodSync(privateHome, 0o700);
    const env = { ...userEnv(privateHome), PATH: '/usr/bin:/bin' };
    const options = { home: privateHome, cwd: folder, runner: 'bubblewrap' as const, env };
    expect(
      (await runCli(['setup', ...base, '--yes', '--find-links', wheels, 'tables'], options)).code,
    ).toBe(0);
    const mapped = await runCli(['run', ...base, '--yes', 'tables', 'scripts/who.py'], options);
    expect(mapped.stdout).toBe('as root 0\n');

    // SKILLHOST_HOME that nobody may search (its files stay private), and the system's python:
    // the run is nobody's.
    const shared = tempDir('skillhost-shared-');
    chmodSync(shared, 0o755);
    const open = { ...options, env: { ...env, SKILLHOST_HOME: join(shared, 'skillhost') } };
    expect(
      (await runCli(['setup', ...base, '--yes', '--find-links', wheels, 'tables'], open)).code,
    ).toBe(0);
    chmodSync(join(shared, 'skillhost'), 0o711);
    const asNobody = await runCli(['run', ...base, '--yes', 'tables', 'scripts/who.py'], open);
    expect(asNobody.stdout).toBe('as root 65534\n');

    // A workspace owned by an ordinary user runs as that user, who cannot reach a private
    // environment: the run goes without it and says why.
    chownSync(folder, 1000, 1000);
    const owned = await runCli(['run', ...base, '--yes', 'tables', 'scripts/who.py'], options);
    expect(owned.code).toBe(1);
    expect(owned.stderr).toContain('the user the script runs as cannot reach it');
  });
});

describe('skillhost setup for Node', { timeout: PIP_TIMEOUT }, () => {
  it('installs a local tarball with npm, offline, without running its install scripts', async () => {
    const home = tempDir('skillhost-home-');
    const source = writeTree(tempDir('skillhost-package-'), {
      'package.json': JSON.stringify({
        name: 'tabledeps',
        version: '1.0.0',
        main: 'index.js',
        scripts: {
          postinstall: `node -e "require('fs').writeFileSync('${home}/POSTINSTALL-RAN','')"`,
        },
      }),
      'index.js': 'module.exports = { VALUE: "from the tarball" };\n',
    });
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', source], {
      cwd: source,
      env: { ...process.env, npm_config_cache: join(home, '.npm') },
    })
      .toString()
      .trim();
    const { folder, skill, base } = project({
      'scripts/package.json': JSON.stringify({
        name: 'tables-scripts',
        private: true,
        dependencies: { tabledeps: 'file:vendor/tabledeps-1.0.0.tgz' },
      }),
      'scripts/use.mjs':
        "import tabledeps from 'tabledeps';\nconsole.log('esm', tabledeps.VALUE);\n",
      'scripts/use.cjs': "console.log('cjs', require('tabledeps').VALUE);\n",
    });
    writeTree(skill, {
      'scripts/vendor/tabledeps-1.0.0.tgz': readFileSync(join(source, tarball)),
    });
    const options = { home, cwd: folder, runner: 'bubblewrap' as const, env: userEnv(home) };
    const before = await runCli(['run', ...base, '--yes', 'tables', 'scripts/use.cjs'], options);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('skillhost setup tables');

    const setup = await runCli(['setup', ...base, '--yes', '--offline', 'tables'], options);
    expect(setup.stderr).not.toContain('SETUP_');
    expect(setup.code).toBe(0);
    expect(setup.stdout).toContain(
      'Node packages (scripts/package.json, no lockfile):\n  tabledeps@file:vendor/tabledeps-1.0.0.tgz\n',
    );
    expect(setup.stdout).toMatch(
      /\$ \S+\/npm install --ignore-scripts --no-audit --no-fund --offline\n/,
    );
    expect(existsSync(join(home, 'POSTINSTALL-RAN'))).toBe(false);
    expect(existsSync(join(skill, 'scripts/node_modules'))).toBe(false);

    const esm = await runCli(['run', ...base, '--yes', 'tables', 'scripts/use.mjs'], options);
    expect(esm.stdout).toBe('esm from the tarball\n');
    const cjs = await runCli(['run', ...base, '--yes', 'tables', 'scripts/use.cjs'], options);
    expect(cjs.stdout).toBe('cjs from the tarball\n');
    expect(cjs.stderr).toContain('packages from skillhost setup');
  });
});
