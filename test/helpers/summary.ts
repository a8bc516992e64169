/**
 * The counting behind the closing line, "Tests: N passed, N failed, N skipped", kept apart from
 * Vitest's objects so that it can be tested on plain data.
 */

/** One test as the run left it. */
export interface CountedTest {
  /** Vitest's result state (`pending` when the run never reached it). */
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** How the test was declared: `run` (also `only`) for a test meant to run, `skip` or `todo`. */
  readonly mode: 'run' | 'only' | 'skip' | 'todo';
}

/** A test file or a suite: the errors reported on it (loading, its hooks), its tests, its suites. */
export interface CountedGroup {
  readonly errors: number;
  readonly tests: readonly CountedTest[];
  readonly groups: readonly CountedGroup[];
}

export interface Counts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/**
 * Counts a run. A test that was meant to run but did not because a file or suite around it
 * reported an error (a failed `beforeAll`) is a failure, not a skip; a file or suite whose
 * error stopped no test (a file that did not load, a failed `afterAll`) counts as one failure;
 * so does each error outside every test file.
 */
export function countResults(files: readonly CountedGroup[], unhandledErrors = 0): Counts {
  let passed = 0;
  let failed = unhandledErrors;
  let skipped = 0;
  /** Counts a group's tests; returns how many of them its errors (or its parents') stopped. */
  const visit = (group: CountedGroup, blocked: boolean): number => {
    const blocks = blocked || group.errors > 0;
    let stopped = 0;
    for (const test of group.tests) {
      if (test.state === 'passed') passed += 1;
      else if (test.state === 'failed') failed += 1;
      else if (blocks && (test.mode === 'run' || test.mode === 'only')) {
        failed += 1;
        stopped += 1;
      } else skipped += 1;
    }
    for (const child of group.groups) stopped += visit(child, blocks);
    if (group.errors > 0 && stopped === 0) failed += 1;
    return stopped;
  };
  for (const file of files) visit(file, false);
  return { passed, failed, skipped };
}

/** Tests that were not run at all, and why. */
export interface NotRun {
  readonly count: number;
  /** Which tests and why, e.g. `sandbox suite: bubblewrap missing`. */
  readonly reason: string;
}

/**
 * The closing line, e.g. `Tests: 340 passed, 0 failed, 0 skipped, 14 not run (sandbox suite:
 * bubblewrap missing)`; the suites left out are named in order, separated by `; `.
 */
export function closingLine(counts: Counts, notRun?: NotRun | readonly NotRun[]): string {
  const line = `Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  const left = (notRun === undefined ? [] : 'count' in notRun ? [notRun] : notRun).filter(
    (entry) => entry.count > 0,
  );
  if (left.length === 0) return line;
  const count = left.reduce((sum, entry) => sum + entry.count, 0);
  return `${line}, ${count} not run (${left.map((entry) => entry.reason).join('; ')})`;
}
