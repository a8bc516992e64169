import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function setup() {
  const skills = writeTree(tempDir('skillhost-skills-'), {
    'greet/SKILL.md': skillText(
      'name: greet\ndescription: Greets people. Use when asked to greet.',
    ),
    'greet/scripts/greet.sh': '#!/bin/sh\necho "hello $1"\n',
  });
  const home = tempDir('skillhost-home-');
  const env = { SKILLHOST_HOME: tempDir('skillhost-state-') };
  return { home, env, base: ['--no-default-sources', '--skills', skills], skills };
}

describe('approvals a user can manage', () => {
  it('refuses without a terminal and names --yes and skillhost approve', async () => {
    const { home, env, base } = setup();
    const run = await runCli(['run', ...base, 'greet', 'scripts/greet.sh'], { home, env });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('PERMISSION_REQUIRED');
    expect(run.stderr).toContain('--yes');
    expect(run.stderr).toContain('skillhost approve greet scripts/greet.sh');
  });

  it('approve stores an approval for the exact content; list shows it; revoke takes it back', async () => {
    const { home, env, base, skills } = setup();
    const approved = await runCli(['approve', ...base, 'greet', 'scripts/greet.sh'], { home, env });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Approved scripts/greet.sh of greet@');
    const ran = await runCli(['run', ...base, 'greet', 'scripts/greet.sh', '--', 'you'], {
      home,
      env,
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('hello you\n');
    expect(ran.stderr).toContain('approved by policy');
    const listed = await runCli(['approvals', 'list'], { home, env });
    expect(listed.stdout).toMatch(/^greet@\S+ {2}scripts\/greet\.sh {2}sha256 [0-9a-f]{16}…\n$/);
    const json = JSON.parse((await runCli(['approvals', 'list', '--json'], { home, env })).stdout);
    expect(json).toHaveLength(1);

    // Another content is another script: asked again.
    writeTree(skills, { 'greet/scripts/greet.sh': '#!/bin/sh\necho "changed"\n' });
    const changed = await runCli(['run', ...base, 'greet', 'scripts/greet.sh'], { home, env });
    expect(changed.code).toBe(3);

    const revoked = await runCli(['approvals', 'revoke', 'greet'], { home, env });
    expect(revoked.stdout).toBe('Revoked 1 approval\n');
    expect((await runCli(['approvals', 'list'], { home, env })).stdout).toBe('(no approvals)\n');
  });

  it('refuses to approve what could not run', async () => {
    const { home, env, base } = setup();
    const refused = await runCli(['approve', ...base, 'greet', 'SKILL.md'], { home, env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('SCRIPT_OUTSIDE_SCRIPTS');
  });

  it('shows the script at the prompt on v, then takes the answer', async () => {
    const { home, env, base } = setup();
    const run = await runCli(['run', ...base, 'greet', 'scripts/greet.sh', '--', 'you'], {
      home,
      env,
      input: ['v', 'y'],
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[v]iew the script');
    expect(run.stderr).toContain('   2  echo "hello $1"');
    expect(run.stdout).toBe('hello you\n');
  });
});
