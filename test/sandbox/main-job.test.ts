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
    expect(out).toMatch(/chain: intact \(\d+ records\)/);
  });
});
