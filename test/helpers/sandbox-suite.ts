/**
 * The one preflight of the sandbox suite (test/sandbox/): whether bubblewrap can be used here,
 * and what follows when it cannot. Where the sandbox is required (CI, or
 * SKILLHOST_REQUIRE_SANDBOX=1) its absence fails the run; elsewhere the suite is not run and
 * the run says so, with the number of tests left out.
 */

/** Where the sandbox suite's tests live. */
export const SANDBOX_SUITE = 'test/sandbox/**/*.test.ts';

export type Environment = Readonly<Record<string, string | undefined>>;

/** What `probeBubblewrap` answers. */
export interface BubblewrapStatus {
  readonly available: boolean;
  readonly reason: string;
}

export interface SandboxSuitePlan {
  /** `run`: bubblewrap works; `fail`: it does not, and it is required; `skip`: it does not. */
  readonly mode: 'run' | 'fail' | 'skip';
  /** Why bubblewrap cannot be used: `bubblewrap missing`, or the probe's reason. Empty in `run`. */
  readonly reason: string;
  /** What to do about it (`apt-get install bubblewrap` when missing), or empty. */
  readonly hint: string;
  /** What requires the sandbox here (`CI=true`, `SKILLHOST_REQUIRE_SANDBOX=1`), or empty. */
  readonly requiredBy: string;
}

/** What makes the sandbox suite a requirement: CI (any value but empty, `false` or `0`), or SKILLHOST_REQUIRE_SANDBOX=1. */
export function sandboxRequiredBy(env: Environment): string {
  if (env.SKILLHOST_REQUIRE_SANDBOX === '1') return 'SKILLHOST_REQUIRE_SANDBOX=1';
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci.toLowerCase() !== 'false' && ci !== '0')
    return `CI=${ci}`;
  return '';
}

/** Decides what becomes of the sandbox suite, from the environment and the probe's answer. */
export function planSandboxSuite(env: Environment, status: BubblewrapStatus): SandboxSuitePlan {
  const requiredBy = sandboxRequiredBy(env);
  if (status.available) return { mode: 'run', reason: '', hint: '', requiredBy };
  const missing = /\bis not installed\b/.test(status.reason);
  return {
    mode: requiredBy === '' ? 'skip' : 'fail',
    reason: missing ? 'bubblewrap missing' : status.reason,
    hint: missing ? 'apt-get install bubblewrap' : '',
    requiredBy,
  };
}

/** `reason; hint`, or the reason alone. */
function because(plan: SandboxSuitePlan): string {
  return plan.hint === '' ? plan.reason : `${plan.reason}; ${plan.hint}`;
}

/** The one line a run without the sandbox suite prints. */
export function notRunLine(plan: SandboxSuitePlan, count: number): string {
  return `sandbox suite: ${count} ${count === 1 ? 'test' : 'tests'} not run: ${because(plan)}`;
}

/** The one line a run prints when the suite is required but bubblewrap cannot be used. */
export function requiredLine(plan: SandboxSuitePlan, count: number): string {
  return `sandbox suite: ${count} ${count === 1 ? 'test' : 'tests'} failed: ${because(plan)} (required here: ${plan.requiredBy})`;
}

/** The error every test of the suite fails with when the sandbox is required but unusable. */
export function requiredFailure(plan: SandboxSuitePlan): string {
  return `The sandbox suite must run here (${plan.requiredBy}), but it cannot: ${because(plan)}`;
}
