import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, root } from '../helpers/built.js';

describe('the example agent, run by skillhost agent run against the scripted local model', () => {
  it('routes, reads its checklist and a workspace file, runs a command and count_lines.sh in bubblewrap, answers, and the audit trail verifies', () => {
    // No key and no local server in this environment: the example starts its scripted model.
    const result = spawnSync(
      process.execPath,
      [join(root, 'examples', 'agent-run.mjs'), '--keep'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        timeout: 60_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('SCRIPTED LOCAL MODEL');
    expect(result.stderr).toContain('▸ skillhost_search review code quality');
    expect(result.stderr).toContain('▸ skillhost_read code-analysis references/checklist.md … ok');
    expect(result.stderr).toContain('▸ workspace_read code-analysis/SKILL.md 5 … ok');
    expect(result.stderr).toMatch(
      /▸ workspace_bash ls \*\/SKILL\.md \| wc -l … ok .*\(approved by --yes\/--allow\)/,
    );
    expect(result.stderr).toMatch(
      /▸ skillhost_run code-analysis scripts\/count_lines\.sh .* … ok .*\(approved by --yes\/--allow\)/,
    );
    expect(result.stdout).toContain('./code-analysis/scripts/count_lines.sh');
    expect(result.stdout).toContain('[exit code 0; sandbox: bubblewrap]');
    expect(result.stderr).toMatch(/── done · 6 steps/);
    expect(result.stdout).toContain('audit log: intact');
    const home = /audit log are in (\S+)/.exec(result.stdout)?.[1] as string;
    const verify = spawnSync(process.execPath, [bin, 'audit', 'verify', '--json'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: home },
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const show = spawnSync(process.execPath, [bin, 'audit', 'show'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: home },
    });
    for (const event of [
      'agent-start',
      'skill-activate',
      'resource-read',
      'tool-call',
      'script-run',
      'model-request',
      'agent-end',
    ])
      expect(show.stdout).toContain(event);
    // The search ranked code-analysis first: the router's answer reached the model.
    const session = /session ([0-9a-f-]{36})/.exec(result.stderr)?.[1] as string;
    const log = spawnSync(process.execPath, [bin, 'sessions', 'show', session, '--json'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: home },
    });
    const results = JSON.parse(log.stdout).events.filter(
      (event: { type: string }) => event.type === 'tool-result',
    );
    expect(results[0].text.split('\n')[0]).toMatch(/^code-analysis \(/);
    expect(results[2].text).toContain('name: code-analysis');
    rmSync(home, { recursive: true, force: true });
  });
});
