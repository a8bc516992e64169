import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionTable } from '../../src/cli/commands/completion.js';
import { type DoctorFacts, doctorChecks } from '../../src/cli/commands/doctor-checks.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

describe('skillhost init', () => {
  it('creates a skill that passes strict validation, with scripts/, references/ and assets/', async () => {
    const project = tempDir('skillhost-project-');
    const run = await runCli(['init', 'report-maker'], { cwd: project });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const skill = join(project, '.agents/skills/report-maker');
    for (const file of [
      'SKILL.md',
      'scripts/example.sh',
      'references/REFERENCE.md',
      'assets/.gitkeep',
    ])
      expect(existsSync(join(skill, file)), file).toBe(true);
    const validated = await runCli(['validate', '--json', skill], { cwd: project });
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout).results[0].diagnostics).toEqual([]);
    expect(readFileSync(join(skill, 'SKILL.md'), 'utf8')).toContain('How to finish this skill');
    expect((await runCli(['init', 'report-maker'], { cwd: project })).stderr).toContain(
      'SKILL_EXISTS',
    );
  });

  it('takes --dir and --description, quoting the description as YAML needs, and refuses a bad name', async () => {
    const folder = tempDir();
    const run = await runCli(
      ['init', 'x-y', '--dir', 'out', '--description', 'Turns "a: b" into #c. Use when asked.'],
      { cwd: folder },
    );
    expect(run.code).toBe(0);
    const props = await runCli(['read-properties', join(folder, 'out/x-y')]);
    expect(JSON.parse(props.stdout).description).toBe('Turns "a: b" into #c. Use when asked.');
    for (const name of ['Bad', 'a--b', '-a', 'ünïcode', '../up'])
      expect((await runCli(['init', name], { cwd: folder })).code, name).toBe(2);
  });
});

function facts(overrides: Partial<DoctorFacts> = {}): DoctorFacts {
  return {
    system: {
      node: '20.19.0',
      platform: 'linux',
      bubblewrap: { available: true, reason: 'bubblewrap at /usr/bin/bwrap' },
      prlimit: '/usr/bin/prlimit',
      git: { path: '/usr/bin/git', version: '2.39.5' },
    },
    sources: [],
    findings: [],
    project: { path: '/p', trusted: true },
    home: { path: '/h/.skillhost', facts: { kind: 'directory', mode: 0o700, ownedByUser: true } },
    config: {
      path: '/h/.skillhost/config.json',
      facts: { kind: 'file', mode: 0o600, ownedByUser: true },
    },
    keys: { path: '/h/.skillhost/keys.json', facts: undefined },
    cache: { path: '/h/.skillhost/cache', usage: undefined },
    audit: {
      path: '/h/.skillhost/audit.jsonl',
      records: 0,
      sessions: 0,
      broken: [],
      unended: 0,
      torn: 0,
    },
    installed: [],
    providers: [],
    clients: [],
    ...overrides,
  };
}

const status = (checks: ReturnType<typeof doctorChecks>, id: string) =>
  checks.filter((check) => check.id === id);

describe('doctor checks', () => {
  it('passes a healthy machine and explains each failure with a fix', () => {
    expect(doctorChecks(facts()).filter((check) => check.status === 'fail')).toEqual([]);
    const bad = doctorChecks(
      facts({
        system: {
          node: '18.20.0',
          platform: 'linux',
          bubblewrap: { available: false, reason: 'bubblewrap (bwrap) is not installed' },
          prlimit: undefined,
          git: undefined,
        },
        keys: {
          path: '/h/.skillhost/keys.json',
          facts: { kind: 'file', mode: 0o644, ownedByUser: true },
        },
        audit: { path: '/a', records: 9, sessions: 2, broken: ['s1'], unended: 0, torn: 0 },
        installed: [
          {
            scope: 'project',
            lockfile: '/p/skills-lock.json',
            exists: true,
            problems: [],
            skills: [
              { name: 'gone', state: 'missing', external: true, trusted: false },
              { name: 'edited', state: 'modified', external: false, trusted: false },
            ],
          },
        ],
      }),
    );
    expect(status(bad, 'node')[0]).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('20.19'),
    });
    expect(status(bad, 'bubblewrap')[0]).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('apt-get install bubblewrap'),
    });
    expect(status(bad, 'prlimit')[0]).toMatchObject({
      status: 'warn',
      fix: 'apt-get install util-linux',
    });
    expect(status(bad, 'keys')[0]).toMatchObject({
      status: 'fail',
      fix: 'chmod 600 /h/.skillhost/keys.json',
    });
    expect(status(bad, 'audit')[0]).toMatchObject({ status: 'fail' });
    const locks = status(bad, 'lockfile:project');
    expect(locks.map((check) => check.status)).toEqual(['fail', 'warn', 'info']);
    expect(locks[0]?.fix).toBe('skillhost install');
    expect(locks[1]?.detail).toContain('modified');
  });

  it('flags an MCP client that would run npx skillhost, and says nothing of keys but their presence', () => {
    const checks = doctorChecks(
      facts({
        providers: [
          { name: 'anthropic', key: 'environment' },
          { name: 'openai', key: 'missing' },
        ],
        clients: [
          {
            client: 'Cursor (project)',
            path: '/p/.cursor/mcp.json',
            servers: [
              {
                name: 'skills',
                command: ['npx', '-y', 'skillhost', 'mcp'],
                problem: 'runs npx skillhost, …',
              },
            ],
          },
        ],
      }),
    );
    expect(status(checks, 'mcp-client')[0]).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('dist/cli/bin.js'),
    });
    expect(status(checks, 'provider:anthropic')[0]).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('not shown'),
    });
    expect(status(checks, 'provider:openai')).toEqual([]);
  });
});

describe('skillhost doctor', () => {
  it('reports sources, installed skills, providers and client configurations of this machine, never printing a key', async () => {
    const project = tempDir('skillhost-project-');
    const home = tempDir('skillhost-home-');
    writeTree(project, {
      '.agents/skills/local/SKILL.md': skillText('name: local\ndescription: Local. Use here.'),
      '.cursor/mcp.json': JSON.stringify({
        mcpServers: { skills: { command: 'npx', args: ['-y', 'skillhost', 'mcp'] } },
      }),
      '.vscode/mcp.json': JSON.stringify({
        servers: { other: { command: 'node', args: ['server.js'] } },
      }),
    });
    mkdirSync(join(home, '.skillhost'), { recursive: true });
    writeFileSync(
      join(home, '.skillhost/keys.json'),
      JSON.stringify({ openai: 'sk-proj-doctorsecret1234567890' }),
    );
    chmodSync(join(home, '.skillhost/keys.json'), 0o600);
    const run = await runCli(['doctor', '--json'], {
      cwd: project,
      home,
      env: { ANTHROPIC_API_KEY: 'sk-ant-doctorsecret-abcdefghijklmnop' },
    });
    expect(run.stdout).not.toContain('doctorsecret');
    const { checks } = JSON.parse(run.stdout) as {
      checks: Array<{ id: string; status: string; detail: string }>;
    };
    const ids = checks.map((check) => check.id);
    for (const id of [
      'node',
      'bubblewrap',
      'prlimit',
      'git',
      'project-trust',
      'config',
      'keys',
      'cache',
      'audit',
    ])
      expect(ids, id).toContain(id);
    expect(checks.find((check) => check.id === 'source:project')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('1 skill'),
    });
    expect(checks.find((check) => check.id === 'provider:anthropic')?.detail).toContain(
      'environment',
    );
    expect(checks.find((check) => check.id === 'provider:openai')?.detail).toContain('keys.json');
    expect(checks.filter((check) => check.id === 'mcp-client')).toEqual([
      expect.objectContaining({
        status: 'warn',
        detail: expect.stringContaining('.cursor/mcp.json'),
      }),
    ]);
    chmodSync(join(home, '.skillhost/keys.json'), 0o644);
    const insecure = JSON.parse(
      (await runCli(['doctor', '--json'], { cwd: project, home })).stdout,
    );
    expect(insecure.checks.find((check: { id: string }) => check.id === 'keys').status).toBe(
      'fail',
    );
    const text = await runCli(['doctor'], { cwd: project, home });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('fix: chmod 600');
  });
});

describe('skillhost completion', () => {
  it('is made from the help of every command: its actions and options', () => {
    const table = completionTable();
    expect(table.map((entry) => entry.name)).toEqual(COMMANDS.map((command) => command.name));
    const audit = table.find((entry) => entry.name === 'audit');
    expect(audit?.actions).toEqual(['show', 'tail', 'verify']);
    expect(audit?.options).toEqual(
      expect.arrayContaining(['--audit-log', '--session', '--lines', '--json']),
    );
    expect(table.find((entry) => entry.name === 'agent')?.actions).toEqual([
      'list',
      'prompt',
      'run',
      'show',
    ]);
    expect(table.find((entry) => entry.name === 'add')?.options).toEqual(
      expect.arrayContaining([
        '--skill',
        '--user',
        '--project',
        '--yes',
        '--force',
        '--submodules',
      ]),
    );
    expect(table.find((entry) => entry.name === 'list')?.options).toContain('--no-default-sources');
    expect(table.find((entry) => entry.name === 'add')?.actions).toEqual([]);
  });

  const shells = [
    ['bash', ['bash', '-n']],
    ['zsh', ['zsh', '-n']],
    ['fish', ['fish', '--no-execute']],
  ] as const;
  for (const [shell, check] of shells) {
    // Under CI every shell is installed by .ci/run: a missing one fails there instead of skipping.
    const available =
      spawnSync(check[0], ['-c', 'true']).status === 0 || process.env.CI !== undefined;
    it.skipIf(!available)(`prints a ${shell} script that ${shell} parses`, async () => {
      const run = await runCli(['completion', shell]);
      expect(run.code).toBe(0);
      const file = join(tempDir(), `completion.${shell}`);
      writeFileSync(file, run.stdout);
      const parsed = spawnSync(check[0], [...check.slice(1), file], { encoding: 'utf8' });
      expect(parsed.stderr).toBe('');
      expect(parsed.status).toBe(0);
    });
  }

  it("completes commands and a command's options in bash", async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    const complete = (words: string[]) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _skillhost; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      ).stdout.split('\n');
    expect(complete(['skillhost', 'up'])).toContain('update');
    expect(complete(['skillhost', 'add', '--sk'])).toEqual(['--skill', '']);
    expect(complete(['skillhost', 'audit', 've'])).toContain('verify');
    expect((await runCli(['completion', 'tcsh'])).code).toBe(2);
  });
});
