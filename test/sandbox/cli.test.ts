import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function setup(allowed = '') {
  const skills = tempDir('skillhost-skills-');
  const home = tempDir('skillhost-home-');
  writeTree(skills, {
    'greet/SKILL.md': skillText(
      `name: greet\ndescription: Greets people. Use when asked to greet.${allowed === '' ? '' : `\nallowed-tools: ${allowed}`}`,
    ),
    'greet/scripts/greet.sh':
      '#!/bin/sh\necho "hello $1"\necho "to stderr" >&2\nexit $(($2 + 0))\n',
    'greet/scripts/slow.sh': '#!/bin/sh\nsleep 30\n',
    'greet/scripts/fill.sh':
      '#!/bin/sh\ni=0\nwhile [ $i -lt 100 ]; do head -c 1M /dev/zero > /work/f$i; i=$((i+1)); done\nsleep 5\n',
  });
  return { home, base: ['--no-default-sources', '--skills', skills] };
}

describe('skillhost run with the real sandbox', () => {
  it('runs the script in bubblewrap: its output, its exit code, a one-line result', async () => {
    const { home, base } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', 'greet', 'scripts/greet.sh', '--', 'you', '7'],
      { home, runner: 'bubblewrap' },
    );
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('hello you\n');
    expect(result.stderr).toContain('to stderr');
    expect(result.stderr).toMatch(/exit 7 · .* · output complete · sandbox bubblewrap/);
  });

  it('kills a script at the timeout and exits 124', async () => {
    const { home, base } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', '--timeout', '0.5', 'greet', 'scripts/slow.sh'],
      { home, runner: 'bubblewrap' },
    );
    expect(result.code).toBe(124);
    expect(result.stderr).toContain('timed out');
    expect(result.stderr).toContain('sandbox bubblewrap');
  });

  it('stops a script past --max-write and says so; names the files it left out', async () => {
    const { home, base } = setup();
    const skill = base[2] as string;
    symlinkSync('/etc/hostname', join(skill, 'greet/hostname'));
    const result = await runCli(
      ['run', ...base, '--yes', '--max-write', '4M', 'greet', 'scripts/fill.sh'],
      { home, runner: 'bubblewrap' },
    );
    expect(result.code).toBe(137);
    expect(result.stderr).toContain('[skillhost run] not staged: hostname (symlink)\n');
    expect(result.stderr).toMatch(
      /killed by SIGKILL · .* · stopped: write limit \(4 MiB in all\) · sandbox bubblewrap · approved by once · 1 skill file not staged\n$/,
    );
  });

  it("runs a pre-approved script, and asks for it once the host's rules about commands bind it", async () => {
    const { home, base } = setup('Bash(sh scripts/greet.sh:*)');
    const argv = ['greet', 'scripts/greet.sh', '--', 'you'];
    const approved = await runCli(['run', ...base, ...argv], { home, runner: 'bubblewrap' });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe('hello you\n');
    expect(approved.stderr).toContain('sandbox bubblewrap · approved by policy');
    for (const options of [
      ['--deny', 'Bash(sh:*)'],
      ['--deny', 'Bash(sh scripts/greet.sh:*)'],
      ['--tools', 'read,run_skill_script,activate_skill'],
    ]) {
      const refused = await runCli(['run', ...base, ...options, ...argv], {
        home,
        runner: 'bubblewrap',
      });
      expect(refused.code, options.join(' ')).toBe(3);
      expect(refused.stderr).toContain('PERMISSION_REQUIRED');
      expect(refused.stdout).toBe('');
    }
  });

  it('runs in the project folder by default, keeps what the script writes and says where', async () => {
    const { home, base } = setup();
    const skill = base[2] as string;
    writeTree(skill, {
      'greet/scripts/report.py': [
        '#!/usr/bin/env python3',
        'import os, sys',
        'rows = open(sys.argv[1]).read().splitlines()',
        'open("report.md", "w").write(f"{len(rows)} rows\\n")',
        'print("cwd", os.getcwd())',
        'open(".env").read()',
      ].join('\n'),
    });
    const project = writeTree(tempDir('skillhost-project-'), {
      'data/rows.csv': 'a\nb\nc\n',
      '.env': 'SECRET=1\n',
    });
    const run = await runCli(
      ['run', ...base, '--yes', 'greet', 'scripts/report.py', '--', 'data/rows.csv'],
      {
        home,
        cwd: project,
        runner: 'bubblewrap',
      },
    );
    expect(run.stdout).toBe(`cwd ${project}\n`);
    const folder = readdirSync(join(project, '.skillhost/runs'));
    expect(folder).toHaveLength(1);
    const kept = join(project, '.skillhost/runs', folder[0] as string);
    expect(readFileSync(join(kept, 'report.md'), 'utf8')).toBe('3 rows\n');
    expect(run.stderr).toContain(
      `[skillhost run] wrote 1 file, kept in ${kept}:\n  report.md (7 bytes) -> ${join(kept, 'report.md')}\n`,
    );
    expect(run.stderr).toContain('[skillhost run] hint: .env is hidden by the sandbox');
    expect(run.stderr).toContain('--expose .env');

    const exposed = await runCli(
      [
        'run',
        ...base,
        '--yes',
        '--expose',
        '.env',
        '--out',
        join(home, 'out'),
        'greet',
        'scripts/report.py',
        '--',
        'data/rows.csv',
      ],
      { home, cwd: project, runner: 'bubblewrap' },
    );
    expect(exposed.code).toBe(0);
    expect(readdirSync(join(home, 'out'))).toHaveLength(1);

    const none = await runCli(
      [
        'run',
        ...base,
        '--yes',
        '--no-workspace',
        'greet',
        'scripts/report.py',
        '--',
        join(project, 'data/rows.csv'),
      ],
      { home, cwd: project, runner: 'bubblewrap' },
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `hint: ${join(project, 'data/rows.csv')} exists on this machine, but the sandbox does not show it`,
    );
  });

  it("runs a project's own skill, inside the read-only project folder, at its real path", async () => {
    const home = tempDir('skillhost-home-');
    const project = writeTree(tempDir('skillhost-project-'), {
      'data/rows.csv': 'a\nb\n',
      '.agents/skills/count/SKILL.md': skillText(
        'name: count\ndescription: Counts rows. Use for tests.',
      ),
      '.agents/skills/count/assets/header.txt': 'rows:\n',
      '.agents/skills/count/scripts/count.sh': [
        '#!/bin/sh',
        `cat "${'$'}(dirname "$0")/../assets/header.txt"`,
        'wc -l < data/rows.csv',
        'echo done > out.txt',
        'echo x > .agents/skills/count/new.txt 2>/dev/null || echo "skill refused"',
      ].join('\n'),
    });
    const run = await runCli(
      ['run', '--no-default-sources', '--skills', join(project, '.agents/skills'), '--yes'].concat([
        'count',
        'scripts/count.sh',
      ]),
      { home, cwd: project, runner: 'bubblewrap' },
    );
    expect(run.stderr).not.toContain("Can't mkdir");
    expect(run.stdout).toBe('rows:\n2\nskill refused\n');
    expect(run.code).toBe(0);
    const explained = await runCli(
      [
        'sandbox',
        'explain',
        '--no-default-sources',
        '--skills',
        join(project, '.agents/skills'),
      ].concat(['--json', 'count', 'scripts/count.sh']),
      { home, cwd: project, runner: 'bubblewrap' },
    );
    const plan = JSON.parse(explained.stdout) as { mounts: { kind: string; path: string }[] };
    // The copy is shown over the workspace's view, where the run folder's link leads.
    expect(plan.mounts).toContainEqual(
      expect.objectContaining({ kind: 'ro', path: '/run/workspace/.agents/skills/count' }),
    );
  });

  it('sandbox explain prints the plan a run would follow, from the runner, running nothing', async () => {
    const { home, base } = setup();
    const project = writeTree(tempDir('skillhost-project-'), {
      'data/rows.csv': 'a\n',
      '.env': 'SECRET=1\n',
    });
    const explained = await runCli(['sandbox', 'explain', ...base, 'greet', 'scripts/greet.sh'], {
      home,
      cwd: project,
      runner: 'bubblewrap',
    });
    expect(explained.code).toBe(0);
    const out = explained.stdout;
    expect(out).toContain('sandbox bubblewrap · network off\n');
    expect(out).toContain(`working directory ${project}\n`);
    expect(out).toContain(`  ro      /run/workspace  <- ${project}`);
    expect(out).toContain('  hidden  /run/workspace/.env\n');
    expect(out).toContain('  ro      /usr\n');
    expect(out).toContain('  SKILL_DIR=/skill\n');
    expect(out).toMatch(/limits: .*--data=2147483648/);
    // Nothing ran: the run folder it planned was removed again.
    expect(readdirSync(join(project, '.skillhost/runs'))).toEqual([]);
    const json = await runCli(
      [
        'sandbox',
        'explain',
        ...base,
        '--no-workspace',
        '--allow-net',
        '--json',
        'greet',
        'scripts/greet.sh',
      ],
      { home, cwd: project, runner: 'bubblewrap' },
    );
    const plan = JSON.parse(json.stdout);
    expect(plan).toMatchObject({ network: true, workingDirectory: '/work', sandbox: 'bubblewrap' });
    expect(plan.command).toContain('--share-net');
  });
});
