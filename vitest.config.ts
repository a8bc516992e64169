import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { createVitest } from 'vitest/node';
import { probeBubblewrap } from './src/node/sandbox.js';
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
 * Two suites: unit (everything but test/sandbox/; runtimes send scripts to the scripted runner)
 * and sandbox (test/sandbox/: hostile scripts and real runs in bubblewrap). One preflight decides the
 * sandbox suite: it runs where bubblewrap works; where it does not, it fails the run under CI or
 * SKILLHOST_REQUIRE_SANDBOX=1, and is otherwise left out with one line saying how many tests
 * did not run and why.
 */
export default defineConfig(async () => {
  const sandbox: SandboxSuitePlan = planSandboxSuite(process.env, probeBubblewrap());
  const sandboxTests = sandbox.mode === 'skip' ? await countTests(SANDBOX_SUITE) : undefined;
  const unit: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: 'unit',
      include: ['test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, SANDBOX_SUITE],
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
      projects: sandbox.mode === 'skip' ? [unit] : [unit, sandboxSuite],
    },
  };
});
