import type { Reporter, SerializedError, TestModule, TestSuite } from 'vitest/node';
import { notRunLine, requiredLine, type SandboxSuitePlan } from './sandbox-suite.js';
import { type CountedGroup, type CountedTest, closingLine, countResults } from './summary.js';

export interface SummaryOptions {
  /** What became of the sandbox suite (vitest.config.ts decides it once). */
  readonly sandbox?: SandboxSuitePlan;
  /** How many tests the sandbox suite holds, when it was not run. */
  readonly sandboxTests?: number;
  /** Where the lines go (default stdout). */
  readonly write?: (text: string) => void;
}

/** A test file or suite as the counting sees it: its errors, tests and suites. */
function countedGroup(group: TestModule | TestSuite): CountedGroup {
  const tests: CountedTest[] = [];
  const groups: CountedGroup[] = [];
  for (const child of group.children) {
    if (child.type === 'suite') groups.push(countedGroup(child));
    else tests.push({ state: child.result().state, mode: child.options.mode });
  }
  return { errors: group.errors().length, tests, groups };
}

/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", that tools reading
 * test output in any language understand, with the tests that were not run and why; a test
 * stopped by a failed hook, or a file that did not load, counts as failed, never as skipped.
 */
export default class SummaryReporter implements Reporter {
  readonly #options: SummaryOptions;

  constructor(options: SummaryOptions = {}) {
    this.#options = options;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const counts = countResults(testModules.map(countedGroup), unhandledErrors.length);
    const write = this.#options.write ?? ((text: string) => process.stdout.write(text));
    const plan = this.#options.sandbox;
    let notRun: { count: number; reason: string } | undefined;
    if (plan?.mode === 'skip') {
      const count = this.#options.sandboxTests ?? 0;
      write(`\n${notRunLine(plan, count)}\n`);
      notRun = { count, reason: `sandbox suite: ${plan.reason}` };
    } else if (plan?.mode === 'fail') {
      const count = testModules
        .filter((module) => module.project.name === 'sandbox')
        .reduce((sum, module) => sum + [...module.children.allTests()].length, 0);
      // Zero when a file filter left the suite out of this run.
      if (count > 0) write(`\n${requiredLine(plan, count)}\n`);
    }
    write(`\n${closingLine(counts, notRun)}\n`);
  }
}
