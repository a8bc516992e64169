import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runMainJob } from '../helpers/built.js';

describe('the main job, with its script run in bubblewrap', () => {
  it('runs end to end on the examples: agent, route, activate, read, run, prompt, audit', () => {
    const result = runMainJob();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('population: 1 empty, range 193000..545000');
    expect(out).toContain('[exit code 0; sandbox: bubblewrap]');
    expect(out).toMatch(/script-run · csv-summary · .*scripts\/summarise\.mjs allow/);
    expect(out).not.toContain('SANDBOX_UNAVAILABLE');
    // The script that needs the project's .venv ran, and its report was kept in a run folder.
    expect(out).toContain('wrote report.md: 4 rows, 4 columns');
    expect(out).toMatch(
      /the report report\.md went to \/.*\/project\/\.skillhost\/runs\/[\w-]+\/report\.md\n/,
    );
    expect(out).toMatch(/chain: intact \(\d+ records\)/);
    // The job leaves nothing in the temporary folder.
    const scratch = /\n {3}(\S+) is removed now/.exec(out)?.[1] as string;
    expect(scratch).toMatch(/skillhost-main-job-/);
    expect(existsSync(scratch)).toBe(false);
  });
});
