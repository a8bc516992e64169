import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { createVitest } from 'vitest/node';
import { probeBubblewrap } from './src/node/sandbox.js';
import { BROWSER_SUITE } from './test/helpers/browser-suite.js';
import { CLIENTS_SUITE } from './test/helpers/clients-suite.js';
import {
  planSandboxSuite,
  requiredFailure,
  SANDBOX_SUITE,
  type SandboxSuitePlan,
} from './test/helpers/sandbox-suite.js';
import SummaryReporter from './test/helpers/summary-reporter.js';

/** How many tests a suite holds, read from its files without running them. */
async function countTests(include: string): Promise<number> {
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: fileURLToPath(new URL('.', import.meta.url)),
      include: [include],
      watch: false,
      reporters: [],
    },
    {},
    {},
  );
  try {
    const { testModules } = await vitest.collect(undefined, { staticParse: true });
    return testModules.reduce((sum, module) => sum + [...module.children.allTests()].length, 0);
  } finally {
    await vitest.close();
  }
}

/**
 * Four suites: unit (everything but test/sandbox/, test/clients/ and test/browser/; runtimes
 * send scripts to the scripted runner), sandbox (test/sandbox/: hostile scripts and real runs in
 * bubblewrap), clients (test/clients/: the real MCP clients against `skillhost mcp`, offline)
 * and browser (test/browser/: `skillhost ui` in headless Chromium). One preflight decides each
 * of the last three: where it fails, the suite fails the run under CI or its SKILLHOST_REQUIRE_…
 * variable, and is otherwise not run, with one line saying how many tests did not run and why.
 * The sandbox preflight is cheap and runs here; the clients preflight installs the clients
 * (once, into a cache) and the browser's starts Chromium, so each is its project's globalSetup,
 * which Vitest runs only when the run includes the project.
 */
export default defineConfig(async () => {
  const sandbox: SandboxSuitePlan = planSandboxSuite(process.env, probeBubblewrap());
  const sandboxTests = sandbox.mode === 'skip' ? await countTests(SANDBOX_SUITE) : undefined;
  const unit: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: 'unit',
      include: ['test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, SANDBOX_SUITE, CLIENTS_SUITE, BROWSER_SUITE],
    },
  };
  const sandboxSuite: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: 'sandbox',
      include: [SANDBOX_SUITE],
      setupFiles: ['./test/helpers/sandbox-setup.ts'],
      provide: { sandboxFailure: sandbox.mode === 'fail' ? requiredFailure(sandbox) : '' },
    },
  };
  const clientsSuite: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: 'clients',
      include: [CLIENTS_SUITE],
      globalSetup: ['./test/clients/preflight.ts'],
      setupFiles: ['./test/clients/setup.ts'],
      // A client run takes seconds; a stuck one is killed by the harness before this.
      testTimeout: 180_000,
      hookTimeout: 180_000,
    },
  };
  const browserSuite: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: 'browser',
      include: [BROWSER_SUITE],
      globalSetup: ['./test/browser/preflight.ts'],
      setupFiles: ['./test/browser/setup.ts'],
      // The session is an agent run of the built bin; the browser starts in seconds.
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  };
  return {
    test: {
      environment: 'node',
      pool: 'forks',
      testTimeout: 30_000,
      setupFiles: ['./test/helpers/setup.ts'],
      reporters: [
        'default',
        new SummaryReporter({
          suites: [
            {
              plan: sandbox,
              project: 'sandbox',
              ...(sandboxTests === undefined ? {} : { tests: sandboxTests }),
            },
          ],
        }),
      ],
      projects:
        sandbox.mode === 'skip'
          ? [unit, clientsSuite, browserSuite]
          : [unit, sandboxSuite, clientsSuite, browserSuite],
    },
  };
});
