import type { Reporter, SerializedError, TestModule, TestSuite } from 'vitest/node';
import { notRunLine, requiredLine, type SuitePlan } from './suite-plan.js';
import {
  type CountedGroup,
  type CountedTest,
  closingLine,
  countResults,
  type NotRun,
} from './summary.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * What a suite's preflight decided, for a project whose preflight runs as its globalSetup
     * (only when the run includes it); the reporter reads it from the project.
     */
    suitePlan?: SuitePlan;
  }
}

/** A suite whose fate vitest.config.ts decided before the run. */
export interface PlannedSuite {
  readonly plan: SuitePlan;
  /** The Vitest project that holds it. */
  readonly project: string;
  /** How many tests it holds, when the plan left it out of the run. */
  readonly tests?: number;
}

export interface SummaryOptions {
  /** Suites decided before the run (a project deciding at run time provides `suitePlan`). */
  readonly suites?: readonly PlannedSuite[];
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

function testCount(modules: readonly TestModule[]): number {
  return modules.reduce((sum, module) => sum + [...module.children.allTests()].length, 0);
}

/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", that tools reading
 * test output in any language understand, with the tests that were not run and why; a test
 * stopped by a failed hook, or a file that did not load, counts as failed, never as skipped.
 * A suite whose preflight failed prints one line of its own: how many tests were not run (or,
 * where it is required, failed) and why.
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
    const write = this.#options.write ?? ((text: string) => process.stdout.write(text));
    const suites = new Map<string, PlannedSuite>();
    for (const suite of this.#options.suites ?? []) suites.set(suite.project, suite);
    for (const module of testModules) {
      const plan = module.project.getProvidedContext().suitePlan;
      if (plan !== undefined && !suites.has(module.project.name))
        suites.set(module.project.name, { plan, project: module.project.name });
    }
    const notRun: NotRun[] = [];
    const leftOut = new Set<string>();
    for (const { plan, project, tests } of suites.values()) {
      const modules = testModules.filter((module) => module.project.name === project);
      if (plan.mode === 'skip') {
        // Left out by the config (counted from its files), or run with every test skipped.
        const count = tests ?? testCount(modules);
        write(`\n${notRunLine(plan, count)}\n`);
        notRun.push({ count, reason: `${plan.suite} suite: ${plan.reason}` });
        leftOut.add(project);
      } else if (plan.mode === 'fail') {
        const count = testCount(modules);
        // Zero when a file filter left the suite out of this run.
        if (count > 0) write(`\n${requiredLine(plan, count)}\n`);
      }
    }
    const counted = testModules.filter((module) => !leftOut.has(module.project.name));
    const counts = countResults(counted.map(countedGroup), unhandledErrors.length);
    write(`\n${closingLine(counts, notRun)}\n`);
  }
}
