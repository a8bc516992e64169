import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function setup() {
  const skills = tempDir('skillhost-skills-');
  const home = tempDir('skillhost-home-');
  writeTree(skills, {
    'git-helper/SKILL.md': skillText(
      'name: git-helper\ndescription: Helps with git. Use for git work.\nallowed-tools: Bash(git:*) Bash(npm test:*)',
    ),
  });
  return { home, base: ['--no-default-sources', '--skills', skills], skills };
}

const check = (base: readonly string[], ...rest: string[]) => ['policy', 'check', ...base, ...rest];

describe('skillhost policy check', () => {
  it('prints the decision, the rule and the reason', async () => {
    const { home, base } = setup();
    const allowed = await runCli(check(base, 'git-helper', '--bash', 'git status'), { home });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toBe(
      "decision: allow\nrule:     skill-grant\nreason:   Pre-approved by git-helper@explicit: 'Bash(git:*)'\n",
    );
    const asked = await runCli(
      check(base, 'git-helper', '--bash', "git -c core.sshCommand='sh -c id' fetch"),
      { home },
    );
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(
      /^decision: ask\nrule: {5}runs-other-programs\nreason: {3}Confirmation needed: git -c can run another program/,
    );
    const denied = await runCli(
      check(base, '--deny', 'Bash(curl:*)', 'git-helper', '--bash', 'git log $(curl x)'),
      { home },
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('decision: deny\nrule:     deny-rule\n');
    expect(denied.stdout).toContain("'curl x' runs inside a command substitution");
  });

  it('prints {"decision","rule","reason"} with --json', async () => {
    const { home, base } = setup();
    const result = await runCli(
      check(base, '--json', 'git-helper', '--bash', 'find . -exec rm {} \\;'),
      { home },
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document)).toEqual(['decision', 'rule', 'reason']);
    expect(document).toMatchObject({ decision: 'ask', rule: 'uncovered-command' });
    const ceiling = await runCli(
      check(base, '--json', '--tools', 'read,activate_skill', 'git-helper', '--bash', 'git status'),
      { home },
    );
    expect(JSON.parse(ceiling.stdout)).toMatchObject({ decision: 'deny', rule: 'ceiling' });
  });

  it('says what shadow mode enforces', async () => {
    const { home, base } = setup();
    const result = await runCli(
      check(
        base,
        '--shadow',
        '--deny',
        'Bash(git push:*)',
        'git-helper',
        '--bash',
        'git -C . push',
      ),
      { home },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('decision: deny');
    expect(result.stdout).toContain('effect:   allow (shadow mode');
  });

  it('exits 1 for no such skill or one that cannot be used or activated, 2 for usage', async () => {
    const { home, base } = setup();
    const missing = await runCli(check(base, 'nope', '--bash', 'ls'), { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SKILL_NOT_FOUND');
    const project = tempDir('skillhost-project-');
    writeTree(project, {
      '.agents/skills/local/SKILL.md': skillText(
        'name: local\ndescription: A project skill. Use it.',
      ),
    });
    const untrusted = await runCli(['policy', 'check', 'local@project', '--bash', 'ls'], {
      home,
      cwd: project,
    });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('SKILL_UNAVAILABLE');
    const gated = await runCli(check(base, '--tools', 'bash', 'git-helper', '--bash', 'ls'), {
      home,
    });
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain('cannot be activated');
    for (const argv of [
      check(base, 'git-helper'),
      check(base, 'git-helper', '--bash', ''),
      check(base, 'git-helper', 'extra', '--bash', 'ls'),
      ['policy', 'frobnicate', ...base, 'git-helper'],
      ['policy', 'explain', ...base, 'git-helper', '--bash', 'ls'],
    ]) {
      const result = await runCli(argv, { home });
      expect(result.code, argv.join(' ')).toBe(2);
    }
  });
});
