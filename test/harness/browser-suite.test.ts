import { describe, expect, it } from 'vitest';
import { browserRequiredBy, chromiumMissing, planBrowserSuite } from '../helpers/browser-suite.js';
import { notRunLine, requiredFailure, requiredLine } from '../helpers/suite-plan.js';

describe('the browser suite preflight', () => {
  it('requires the browser under CI or SKILLHOST_REQUIRE_BROWSER=1 only', () => {
    expect(browserRequiredBy({})).toBe('');
    expect(browserRequiredBy({ SKILLHOST_REQUIRE_CLIENTS: '1' })).toBe('');
    expect(browserRequiredBy({ SKILLHOST_REQUIRE_BROWSER: '1' })).toBe(
      'SKILLHOST_REQUIRE_BROWSER=1',
    );
    expect(browserRequiredBy({ SKILLHOST_REQUIRE_BROWSER: '0' })).toBe('');
    expect(browserRequiredBy({ CI: 'true' })).toBe('CI=true');
  });

  it('runs where Chromium starts; is left out, in one line, where it is missing', () => {
    expect(planBrowserSuite({}, { available: true, reason: 'chromium 156' }).mode).toBe('run');
    const plan = planBrowserSuite({}, chromiumMissing('/usr/bin/chromium'));
    expect(plan).toEqual({
      suite: 'browser',
      mode: 'skip',
      reason: 'chromium missing (/usr/bin/chromium)',
      hint: 'apt-get install chromium',
      requiredBy: '',
    });
    expect(notRunLine(plan, 7)).toBe(
      'browser suite: 7 tests not run: chromium missing (/usr/bin/chromium); apt-get install chromium',
    );
  });

  it('fails where the browser is required and Chromium cannot start', () => {
    const status = { available: false, reason: 'chromium at /usr/bin/chromium does not start' };
    const plan = planBrowserSuite({ SKILLHOST_REQUIRE_BROWSER: '1' }, status);
    expect(plan.mode).toBe('fail');
    expect(requiredFailure(plan)).toBe(
      `The browser suite must run here (SKILLHOST_REQUIRE_BROWSER=1), but it cannot: ${status.reason}`,
    );
    expect(requiredLine(plan, 7)).toBe(
      `browser suite: 7 tests failed: ${status.reason} (required here: SKILLHOST_REQUIRE_BROWSER=1)`,
    );
  });
});
