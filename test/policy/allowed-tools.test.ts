import { describe, expect, it } from 'vitest';
import { parseAllowedTools } from '../../src/policy/allowed-tools.js';
import { argvMatches, parseCommand } from '../../src/policy/command.js';

describe('parseAllowedTools', () => {
  it('reads tool entries with and without patterns', () => {
    const { grants, problems } = parseAllowedTools(
      'Read Bash(git:*) Bash(python scripts/run.py:*) Grep, Glob',
    );
    expect(problems).toEqual([]);
    expect(
      grants.map((grant) => [grant.raw, grant.tools, grant.command, grant.preApprovable]),
    ).toEqual([
      ['Read', ['read'], undefined, true],
      ['Bash(git:*)', ['bash'], { argv: ['git'], prefix: true }, true],
      [
        'Bash(python scripts/run.py:*)',
        ['bash'],
        { argv: ['python', 'scripts/run.py'], prefix: true },
        true,
      ],
      ['Grep', ['grep'], undefined, true],
      ['Glob', ['glob'], undefined, true],
    ]);
  });

  it('reads the virtual devices and maps them to canonical tools', () => {
    const { grants, problems } = parseAllowedTools('/dev/fs /dev/shell /dev/net');
    expect(grants.map((grant) => [grant.raw, grant.tools])).toEqual([
      ['/dev/fs', ['read', 'write', 'edit', 'glob', 'grep']],
      ['/dev/shell', ['bash']],
      ['/dev/net', ['web_fetch', 'web_search']],
    ]);
    expect(problems.map((problem) => [problem.raw, problem.kind])).toEqual([
      ['/dev/shell', 'too-broad'],
    ]);
  });

  it('reports unknown, malformed and too-broad entries', () => {
    const { grants, problems } = parseAllowedTools(
      'Teleport /dev/gpu Bash(*) * Bash Bash(rm $(x):*) Read( ) B@d',
    );
    expect(problems.map((problem) => [problem.raw, problem.kind])).toEqual([
      ['Teleport', 'unknown'],
      ['/dev/gpu', 'unknown'],
      ['Bash(*)', 'too-broad'],
      ['*', 'too-broad'],
      ['Bash', 'too-broad'],
      ['Bash(rm $(x):*)', 'malformed'],
      ['Read( )', 'malformed'],
      ['B@d', 'malformed'],
    ]);
    expect(grants.filter((grant) => grant.preApprovable)).toEqual([]);
  });

  it('treats look-alike tool names as unknown', () => {
    expect(parseAllowedTools('Вash(git:*) Read​ ').problems.map((problem) => problem.kind)).toEqual([
      'malformed',
      'malformed',
    ]);
  });
});

describe('parseCommand', () => {
  it('splits simple commands at operators', () => {
    expect(parseCommand('git status && git diff --stat; git log | head').segments).toEqual([
      ['git', 'status'],
      ['git', 'diff', '--stat'],
      ['git', 'log'],
      ['head'],
    ]);
    expect(parseCommand('git commit -m \'a b\' "c d" e\\ f').segments).toEqual([
      ['git', 'commit', '-m', 'a b', 'c d', 'e f'],
    ]);
  });

  it.each([
    ['git log $(rm -rf ~)', 'a substitution or expansion'],
    ['git log `id`', 'a substitution or expansion'],
    ['git log "$HOME"', 'a substitution or expansion'],
    ['git log > /etc/passwd', 'a redirection'],
    ['git log < /etc/shadow', 'a redirection'],
    ['(git log)', 'a subshell or group'],
    ['GIT_SSH_COMMAND=evil git fetch', 'an environment assignment'],
    ['git add *.ts', 'a glob pattern'],
    ['cat ~/.ssh/id_rsa', 'a home-directory expansion'],
    ["git log 'unclosed", 'an unclosed quote'],
  ])('reports what it cannot judge: %s', (command, reason) => {
    expect(parseCommand(command).unsafe).toContain(reason);
  });

  it('matches argv prefixes and exact commands', () => {
    expect(argvMatches(['git', 'status'], { argv: ['git'], prefix: true })).toBe(true);
    expect(argvMatches(['gitx', 'status'], { argv: ['git'], prefix: true })).toBe(false);
    expect(argvMatches(['/usr/bin/git', 'status'], { argv: ['git'], prefix: true })).toBe(false);
    expect(argvMatches(['git', 'status'], { argv: ['git', 'status'], prefix: false })).toBe(true);
    expect(argvMatches(['git', 'status', '-s'], { argv: ['git', 'status'], prefix: false })).toBe(
      false,
    );
  });
});
