/**
 * What becomes of a suite that needs something of the machine (bubblewrap, the real MCP
 * clients): one preflight answers whether it can run here; where it cannot, the suite fails the
 * run if it is required (CI, or its SKILLHOST_REQUIRE_… variable is 1), and is otherwise not run,
 * with one line saying how many tests were left out and why.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

/** What a suite's preflight found. */
export interface PreflightStatus {
  readonly available: boolean;
  /** Why the suite cannot run (or what was found, when it can). */
  readonly reason: string;
  /** What to do about it, e.g. `apt-get install bubblewrap`; empty when there is nothing to say. */
  readonly hint?: string;
}

export interface SuitePlan {
  /** The suite's name as the lines print it: `sandbox`, `clients`. */
  readonly suite: string;
  /** `run`: it can run; `fail`: it cannot, and it is required; `skip`: it cannot. */
  readonly mode: 'run' | 'fail' | 'skip';
  /** Why it cannot run. Empty in `run`. */
  readonly reason: string;
  /** What to do about it, or empty. */
  readonly hint: string;
  /** What requires the suite here (`CI=true`, `SKILLHOST_REQUIRE_SANDBOX=1`), or empty. */
  readonly requiredBy: string;
}

/** What makes a suite a requirement: CI (any value but empty, `false` or `0`), or `variable=1`. */
export function suiteRequiredBy(env: Environment, variable: string): string {
  if (env[variable] === '1') return `${variable}=1`;
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci.toLowerCase() !== 'false' && ci !== '0')
    return `CI=${ci}`;
  return '';
}

/** Decides what becomes of a suite, from the environment and its preflight's answer. */
export function planSuite(
  suite: string,
  variable: string,
  env: Environment,
  status: PreflightStatus,
): SuitePlan {
  const requiredBy = suiteRequiredBy(env, variable);
  if (status.available) return { suite, mode: 'run', reason: '', hint: '', requiredBy };
  return {
    suite,
    mode: requiredBy === '' ? 'skip' : 'fail',
    reason: status.reason,
    hint: status.hint ?? '',
    requiredBy,
  };
}

/** `reason; hint`, or the reason alone. */
function because(plan: SuitePlan): string {
  return plan.hint === '' ? plan.reason : `${plan.reason}; ${plan.hint}`;
}

function tests(count: number): string {
  return `${count} ${count === 1 ? 'test' : 'tests'}`;
}

/** The one line a run without the suite prints. */
export function notRunLine(plan: SuitePlan, count: number): string {
  return `${plan.suite} suite: ${tests(count)} not run: ${because(plan)}`;
}

/** The one line a run prints when the suite is required but cannot run. */
export function requiredLine(plan: SuitePlan, count: number): string {
  return `${plan.suite} suite: ${tests(count)} failed: ${because(plan)} (required here: ${plan.requiredBy})`;
}

/** The error every test of the suite fails with when it is required but cannot run. */
export function requiredFailure(plan: SuitePlan): string {
  return `The ${plan.suite} suite must run here (${plan.requiredBy}), but it cannot: ${because(plan)}`;
}
