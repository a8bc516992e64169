/**
 * The clients suite (test/clients/): the real MCP clients (the Inspector CLI, Claude Code, Codex,
 * Gemini CLI) drive the built `skillhost mcp` against a fake of their model API, each in a
 * network namespace that has only loopback. Its one preflight (test/clients/preflight.ts, the
 * project's globalSetup, so it runs only when the run includes the suite) installs the pinned
 * clients into their cache and makes a namespace; what follows when it cannot is decided here.
 */
import {
  type Environment,
  type PreflightStatus,
  planSuite,
  type SuitePlan,
  suiteRequiredBy,
} from './suite-plan.js';

/** Where the clients suite's tests live. */
export const CLIENTS_SUITE = 'test/clients/**/*.test.ts';

/** What makes the clients suite a requirement: CI, or SKILLHOST_REQUIRE_CLIENTS=1. */
export function clientsRequiredBy(env: Environment): string {
  return suiteRequiredBy(env, 'SKILLHOST_REQUIRE_CLIENTS');
}

/** Decides what becomes of the clients suite, from the environment and the preflight's answer. */
export function planClientsSuite(env: Environment, status: PreflightStatus): SuitePlan {
  return planSuite('clients', 'SKILLHOST_REQUIRE_CLIENTS', env, status);
}
