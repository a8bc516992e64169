import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/** A skills folder with `greet` (a script, with or without a grant) and a home. */
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
  });
  const log = join(home, '.skillhost', 'audit.jsonl');
  const base = ['--no-default-sources', '--skills', skills];
  return { skills, home, log, base };
}

const records = (log: string) =>
  readFileSync(log, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('skillhost run', () => {
  it('runs with --yes: prints the output and a one-line result, exits with the script', async () => {
    const { home, base, log } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', 'greet', 'scripts/greet.sh', '--', 'you', '7'],
      {
        home,
      },
    );
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('hello you\n');
    expect(result.stderr).toContain('to stderr');
    expect(result.stderr).toMatch(
      /\[skillhost run\] exit 7 · \d+\.\d\d s · output complete · sandbox bubblewrap · approved by once/,
    );
    const events = records(log).map((record) => record.event);
    expect(events).toContain('permission-approve');
    expect(events).toContain('script-run');
    expect(events.at(-1)).toBe('session-end');
    const approve = records(log).find((record) => record.event === 'permission-approve');
    expect(approve.details).toMatchObject({ scope: 'once', by: 'flag' });
  });

  it('refuses with exit 3 and a coded message when not interactive and not approved', async () => {
    const { home, base } = setup();
    const result = await runCli(['run', ...base, 'greet', 'scripts/greet.sh'], { home });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^skillhost: error PERMISSION_REQUIRED: /);
    expect(result.stdout).toBe('');
  });

  it('runs without asking when a trusted skill pre-approves it', async () => {
    const { home, base } = setup('Bash(sh scripts/greet.sh:*)');
    const result = await runCli(['run', ...base, 'greet', 'scripts/greet.sh', '--', 'grant'], {
      home,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello grant\n');
    expect(result.stderr).toContain('approved by policy');
  });

  it("asks instead when the host's rules about commands bind the run, and records why", async () => {
    const { home, base, log } = setup('Bash(sh scripts/greet.sh:*)');
    const argv = ['greet', 'scripts/greet.sh', '--', 'x'];
    for (const options of [
      ['--deny', 'Bash'],
      ['--deny', 'Bash(sh:*)'],
      ['--deny', 'Bash(sh scripts/greet.sh:*)'],
      ['--tools', 'read,run_skill_script,activate_skill'],
    ]) {
      const result = await runCli(['run', ...base, ...options, ...argv], { home });
      expect(result.code, options.join(' ')).toBe(3);
      expect(result.stderr).toMatch(/^skillhost: error PERMISSION_REQUIRED: /);
      expect(result.stderr).toContain("A script run is the command 'sh scripts/greet.sh x'");
      expect(result.stdout).toBe('');
    }
    const decided = records(log).filter((record) => record.event === 'permission-decide');
    expect(decided.length).toBeGreaterThan(0);
    expect(JSON.stringify(decided.at(-1))).toContain('script-as-command');
    // Asked at a terminal, the user can still say yes.
    const yes = await runCli(['run', ...base, '--deny', 'Bash(sh:*)', ...argv], {
      home,
      input: ['y'],
    });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('hello x\n');
  });

  it('asks at the terminal: no refuses, yes runs once, always is remembered for this content', async () => {
    const { home, base, skills } = setup();
    const argv = ['run', ...base, 'greet', 'scripts/greet.sh'];
    const no = await runCli(argv, { home, input: ['n'] });
    expect(no.code).toBe(3);
    expect(no.stderr).toContain('[y]es once / [n]o / [a]lways');
    expect(no.stderr).toContain('PERMISSION_DENIED');
    const yes = await runCli(argv, { home, input: ['y'] });
    expect(yes.code).toBe(0);
    const always = await runCli(argv, { home, input: ['a'] });
    expect(always.code).toBe(0);
    // Remembered: no question, even without a terminal.
    const again = await runCli(argv, { home });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('[y]es once');
    // The script changed: the approval no longer applies.
    writeFileSync(join(skills, 'greet/scripts/greet.sh'), '#!/bin/sh\necho changed\n');
    const changed = await runCli(argv, { home });
    expect(changed.code).toBe(3);
    expect(changed.stderr).toContain('PERMISSION_REQUIRED');
  });

  it('exits 124 when the script times out', async () => {
    const { home, base } = setup();
    const result = await runCli(
      ['run', ...base, '--yes', '--timeout', '0.5', 'greet', 'scripts/slow.sh'],
      { home },
    );
    expect(result.code).toBe(124);
    expect(result.stderr).toContain('timed out');
  });

  it('refuses hostile script paths and unknown skills with coded errors', async () => {
    const { home, base } = setup();
    const outside = await runCli(['run', ...base, '--yes', 'greet', 'SKILL.md'], { home });
    expect(outside.code).toBe(3);
    expect(outside.stderr).toContain('SCRIPT_OUTSIDE_SCRIPTS');
    const traversal = await runCli(['run', ...base, '--yes', 'greet', '../../etc/passwd'], {
      home,
    });
    expect(traversal.code).toBe(3);
    expect(traversal.stderr).toContain('RESOURCE_PATH_INVALID');
    const missing = await runCli(['run', ...base, '--yes', 'nope', 'scripts/x.sh'], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SKILL_NOT_FOUND');
    const usage = await runCli(['run', ...base, 'greet'], { home });
    expect(usage.code).toBe(2);
  });

  it('fails closed when the audit log cannot be written', async () => {
    const { home, base } = setup();
    const blocker = join(tempDir(), 'not-a-folder');
    writeFileSync(blocker, '');
    const result = await runCli(
      [
        'run',
        ...base,
        '--yes',
        '--audit-log',
        join(blocker, 'audit.jsonl'),
        'greet',
        'scripts/greet.sh',
      ],
      { home },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('AUDIT_UNAVAILABLE');
    expect(result.stdout).toBe('');
  });
});

describe('skillhost policy explain', () => {
  it('explains entry by entry', async () => {
    const { home, base } = setup('Bash(git:*) Read WebFetch Bash(*) Frobnicate');
    const text = await runCli(['policy', 'explain', ...base, '--tools', 'Bash,Read', 'greet'], {
      home,
    });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/granted\s+Bash\(git:\*\)/);
    expect(text.stdout).toMatch(/unavailable\s+WebFetch/);
    expect(text.stdout).toMatch(/narrows-only\s+Bash\(\*\)/);
    expect(text.stdout).toMatch(/invalid\s+Frobnicate/);
    const json = await runCli(['policy', 'explain', ...base, '--json', 'greet'], { home });
    const document = JSON.parse(json.stdout);
    expect(document.entries.map((entry: { status: string }) => entry.status)).toEqual([
      'granted',
      'granted',
      'granted',
      'narrows-only',
      'invalid',
    ]);
    const missing = await runCli(['policy', 'explain', ...base, 'nope'], { home });
    expect(missing.code).toBe(1);
  });
});

describe('skillhost audit', () => {
  it('shows what was activated, read and run; verify finds tampering', async () => {
    const { home, base, log } = setup();
    await runCli(['activate', ...base, 'greet'], { home });
    await runCli(['read', ...base, 'greet', 'scripts/greet.sh'], { home });
    await runCli(['run', ...base, '--yes', 'greet', 'scripts/greet.sh', '--', 'x'], { home });
    const show = await runCli(['audit', 'show', '--audit-log', log], { home });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/skill-activate · skill greet@explicit · by user/);
    expect(show.stdout).toContain('read "scripts/greet.sh"');
    expect(show.stdout).toMatch(/script-run .*scripts\/greet\.sh allow exit 0 \(bubblewrap\)/);
    const tail = await runCli(['audit', 'tail', '-n', '2', '--audit-log', log, '--json'], { home });
    expect(JSON.parse(tail.stdout)).toHaveLength(2);
    const intact = await runCli(['audit', 'verify', '--audit-log', log], { home });
    expect(intact.code).toBe(0);
    expect(intact.stdout).toContain('Audit log intact.');
    const sessions = records(log).map((record) => record.session_id);
    const one = await runCli(['audit', 'show', '--audit-log', log, '--session', sessions[0]], {
      home,
    });
    expect(one.stdout.trimEnd().split('\n').length).toBe(
      sessions.filter((id) => id === sessions[0]).length,
    );
    // Alter one record: the script's exit code.
    const text = readFileSync(log, 'utf8');
    writeFileSync(log, text.replace('"exit_code":0', '"exit_code":1'));
    const altered = await runCli(['audit', 'verify', '--audit-log', log, '--json'], { home });
    expect(altered.code).toBe(1);
    expect(JSON.parse(altered.stdout)).toMatchObject({ intact: false, code: 'AUDIT_INVALID' });
  });

  it('shows hostile values escaped', async () => {
    const { home, base, log } = setup();
    await runCli(['read', ...base, 'greet', 'x\u001b[31m\nforged'], { home });
    const show = await runCli(['audit', 'show', '--audit-log', log], { home });
    expect(show.stdout).not.toContain('\u001b');
    expect(show.stdout.split('\n').some((line) => line.startsWith('forged'))).toBe(false);
  });
});
