import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/** One skill per allowed-tools entry (so that each entry's verdict is the whole skill's). */
const ENTRIES = [
  'Bash(sh scripts/greet.sh:*)',
  'Bash(bash scripts/greet.sh:*)',
  'Bash(./scripts/greet.sh:*)',
  'Bash(sh:*)',
  'run_skill_script',
  'run_skill_script(scripts/*.sh)',
  '/dev/scripts',
  'Bash(git:*)',
  'Read',
  '',
];

/** Host options, as `skillhost run` and `skillhost policy explain` take them. */
const OPTIONS: ReadonlyArray<readonly string[]> = [
  [],
  ['--deny', 'Bash'],
  ['--deny', 'Bash(sh:*)'],
  ['--deny', 'Bash(sh scripts/greet.sh:*)'],
  ['--deny', 'Bash(bash:*)'],
  ['--deny', 'Bash(curl:*)'],
  ['--deny', 'run_skill_script'],
  ['--deny', 'run_skill_script(scripts/greet.sh)'],
  ['--deny', 'activate_skill'],
  ['--tools', 'read,run_skill_script,activate_skill'],
  ['--tools', 'bash,run_skill_script'],
  ['--tools', 'bash,activate_skill'],
  ['--narrow'],
  ['--shadow', '--deny', 'Bash(sh:*)'],
];

function world() {
  const trusted = tempDir('skillhost-skills-');
  const untrusted = tempDir('skillhost-untrusted-');
  const tree: Record<string, string> = {};
  ENTRIES.forEach((entry, index) => {
    tree[`s${index}/SKILL.md`] = skillText(
      `name: s${index}\ndescription: Greets. Use to greet.${entry === '' ? '' : `\nallowed-tools: ${entry}`}`,
    );
    tree[`s${index}/scripts/greet.sh`] = '#!/bin/sh\necho "hello $1"\n';
  });
  writeTree(trusted, tree);
  writeTree(untrusted, {
    'u0/SKILL.md': skillText(
      'name: u0\ndescription: Greets. Use to greet.\nallowed-tools: run_skill_script',
    ),
    'u0/scripts/greet.sh': '#!/bin/sh\necho hi\n',
  });
  return {
    home: tempDir('skillhost-home-'),
    base: ['--no-default-sources', '--skills', trusted, '--untrusted-skills', untrusted],
  };
}

/** What a real `skillhost run` (not interactive, no --yes) did: allow, ask or deny. */
function outcome(result: { code: number; stderr: string }): string {
  if (result.code === 0) return 'allow';
  if (result.stderr.includes('PERMISSION_REQUIRED')) return 'ask';
  if (result.stderr.includes('PERMISSION_DENIED')) return 'deny';
  return `unexpected exit ${result.code}: ${result.stderr}`;
}

describe('skillhost policy explain says what skillhost run does', () => {
  it('for every entry under every option (and an untrusted skill)', async () => {
    const { home, base } = world();
    const skills = [...ENTRIES.map((_, index) => `s${index}`), 'u0'];
    const mismatches: string[] = [];
    let pre = 0;
    for (const options of OPTIONS) {
      for (const skill of skills) {
        const explained = await runCli(
          ['policy', 'explain', '--json', ...base, ...options, skill],
          { home },
        );
        expect(explained.code).toBe(0);
        const document = JSON.parse(explained.stdout);
        const said = document.scripts.find(
          (script: { call: string }) => script.call === 'scripts/greet.sh',
        );
        const ran = await runCli(['run', ...base, ...options, skill, 'scripts/greet.sh'], { home });
        const did = outcome(ran);
        if (said?.effect !== did)
          mismatches.push(
            `${skill} ${options.join(' ')}: explain ${said?.effect} (${said?.reason}), run ${did}`,
          );
        if (did === 'allow' && said?.decision === 'allow') pre += 1;
        // The entry's own verdict on the script agrees with the skill's (one entry per skill).
        const entry = document.entries[0];
        const run = entry?.runs?.find((item: { call: string }) => item.call === 'scripts/greet.sh');
        if (run !== undefined && run.effect !== did)
          mismatches.push(
            `${skill} entry ${entry.entry} ${options.join(' ')}: ${run.effect} vs ${did}`,
          );
        // Only a run that was really pre-approved says so.
        if (did === 'allow' && !options.includes('--shadow'))
          expect(ran.stderr).toContain('approved by policy');
      }
    }
    expect(mismatches).toEqual([]);
    // The matrix holds runs that are pre-approved, asked for and refused.
    expect(pre).toBeGreaterThan(10);
  });
});
