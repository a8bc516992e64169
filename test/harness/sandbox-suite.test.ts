import { describe, expect, it } from 'vitest';
import {
  notRunLine,
  planSandboxSuite,
  requiredFailure,
  requiredLine,
  sandboxRequiredBy,
} from '../helpers/sandbox-suite.js';

const MISSING = { available: false, reason: 'bubblewrap (bwrap) is not installed' };
const BLOCKED = {
  available: false,
  reason: 'bubblewrap cannot create a sandbox here: bwrap: No permissions to create new namespace',
};
const WORKING = { available: true, reason: 'bubblewrap at /usr/bin/bwrap' };

describe('the sandbox suite preflight', () => {
  it('requires the sandbox under CI or SKILLHOST_REQUIRE_SANDBOX=1 only', () => {
    expect(sandboxRequiredBy({})).toBe('');
    for (const ci of ['', 'false', 'FALSE', '0']) expect(sandboxRequiredBy({ CI: ci })).toBe('');
    for (const ci of ['true', '1', 'yes', 'github'])
      expect(sandboxRequiredBy({ CI: ci })).toBe(`CI=${ci}`);
    expect(sandboxRequiredBy({ SKILLHOST_REQUIRE_SANDBOX: '1' })).toBe(
      'SKILLHOST_REQUIRE_SANDBOX=1',
    );
    expect(sandboxRequiredBy({ SKILLHOST_REQUIRE_SANDBOX: '0' })).toBe('');
  });

  it('runs the suite where bubblewrap works, required or not', () => {
    expect(planSandboxSuite({}, WORKING).mode).toBe('run');
    expect(planSandboxSuite({ CI: 'true' }, WORKING).mode).toBe('run');
  });

  it('leaves the suite out where bubblewrap is missing, saying so in one line', () => {
    const plan = planSandboxSuite({}, MISSING);
    expect(plan).toEqual({
      suite: 'sandbox',
      mode: 'skip',
      reason: 'bubblewrap missing',
      hint: 'apt-get install bubblewrap',
      requiredBy: '',
    });
    expect(notRunLine(plan, 14)).toBe(
      'sandbox suite: 14 tests not run: bubblewrap missing; apt-get install bubblewrap',
    );
    expect(notRunLine(plan, 1)).toBe(
      'sandbox suite: 1 test not run: bubblewrap missing; apt-get install bubblewrap',
    );
  });

  it("gives the probe's reason when bubblewrap is installed but cannot make a sandbox", () => {
    const plan = planSandboxSuite({ CI: 'false' }, BLOCKED);
    expect(plan).toMatchObject({ mode: 'skip', reason: BLOCKED.reason, hint: '' });
    expect(notRunLine(plan, 3)).toBe(`sandbox suite: 3 tests not run: ${BLOCKED.reason}`);
  });

  it('fails the suite where the sandbox is required and unusable, with a clear message', () => {
    const plan = planSandboxSuite({ CI: 'true' }, MISSING);
    expect(plan.mode).toBe('fail');
    expect(requiredFailure(plan)).toBe(
      'The sandbox suite must run here (CI=true), but it cannot: bubblewrap missing; apt-get install bubblewrap',
    );
    expect(requiredLine(plan, 14)).toBe(
      'sandbox suite: 14 tests failed: bubblewrap missing; apt-get install bubblewrap (required here: CI=true)',
    );
    expect(planSandboxSuite({ SKILLHOST_REQUIRE_SANDBOX: '1' }, BLOCKED)).toMatchObject({
      mode: 'fail',
      reason: BLOCKED.reason,
      requiredBy: 'SKILLHOST_REQUIRE_SANDBOX=1',
    });
  });
});
