/**
 * The browser suite (test/browser/): `skillhost ui` loaded in headless Chromium from Debian's
 * packages, driven by playwright-core (no browser download). Its one preflight
 * (test/browser/preflight.ts, the project's globalSetup) starts the browser once; what follows
 * when it cannot is decided here, as for the other suites.
 */
import {
  type Environment,
  type PreflightStatus,
  planSuite,
  type SuitePlan,
  suiteRequiredBy,
} from './suite-plan.js';

/** Where the browser suite's tests live. */
export const BROWSER_SUITE = 'test/browser/**/*.test.ts';

/** What makes the browser suite a requirement: CI, or SKILLHOST_REQUIRE_BROWSER=1. */
export function browserRequiredBy(env: Environment): string {
  return suiteRequiredBy(env, 'SKILLHOST_REQUIRE_BROWSER');
}

/** Decides what becomes of the browser suite, from the environment and the preflight's answer. */
export function planBrowserSuite(env: Environment, status: PreflightStatus): SuitePlan {
  return planSuite('browser', 'SKILLHOST_REQUIRE_BROWSER', env, status);
}

/** The preflight's answer when the executable is not there. */
export function chromiumMissing(path: string): PreflightStatus {
  return {
    available: false,
    reason: `chromium missing (${path})`,
    hint: 'apt-get install chromium',
  };
}
