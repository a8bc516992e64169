/**
 * The one preflight of the sandbox suite (test/sandbox/): whether bubblewrap can be used here,
 * and what follows when it cannot. Where the sandbox is required (CI, or
 * SKILLHOST_REQUIRE_SANDBOX=1) its absence fails the run; elsewhere the suite is not run and
 * the run says so, with the number of tests left out. The lines are the shared ones of
 * suite-plan.ts.
 */
import { type Environment, planSuite, type SuitePlan, suiteRequiredBy } from './suite-plan.js';

export {
  type Environment,
  notRunLine,
  requiredFailure,
  requiredLine,
} from './suite-plan.js';

/** Where the sandbox suite's tests live. */
export const SANDBOX_SUITE = 'test/sandbox/**/*.test.ts';

/** What `probeBubblewrap` answers. */
export interface BubblewrapStatus {
  readonly available: boolean;
  readonly reason: string;
}

export type SandboxSuitePlan = SuitePlan;

/** What makes the sandbox suite a requirement: CI (any value but empty, `false` or `0`), or SKILLHOST_REQUIRE_SANDBOX=1. */
export function sandboxRequiredBy(env: Environment): string {
  return suiteRequiredBy(env, 'SKILLHOST_REQUIRE_SANDBOX');
}

/** Decides what becomes of the sandbox suite, from the environment and the probe's answer. */
export function planSandboxSuite(env: Environment, status: BubblewrapStatus): SandboxSuitePlan {
  const missing = !status.available && /\bis not installed\b/.test(status.reason);
  return planSuite(
    'sandbox',
    'SKILLHOST_REQUIRE_SANDBOX',
    env,
    missing
      ? { available: false, reason: 'bubblewrap missing', hint: 'apt-get install bubblewrap' }
      : status,
  );
}
