import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { root } from '../helpers/built.js';
import {
  type CountedGroup,
  type CountedTest,
  closingLine,
  countResults,
} from '../helpers/summary.js';
import SummaryReporter from '../helpers/summary-reporter.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const test = (state: CountedTest['state'], mode: CountedTest['mode'] = 'run') => ({ state, mode });
const group = (tests: CountedTest[], errors = 0, groups: CountedGroup[] = []): CountedGroup => ({
  tests,
  errors,
  groups,
});

describe('countResults', () => {
  it('counts passed, failed and skipped tests', () => {
    const counts = countResults([
      group([test('passed'), test('passed'), test('failed')]),
      group([test('skipped', 'skip'), test('skipped', 'todo')], 0, [
        group([test('passed', 'only')]),
      ]),
    ]);
    expect(counts).toEqual({ passed: 3, failed: 1, skipped: 2 });
  });

  it('counts tests stopped by a failed beforeAll as failures, not skips', () => {
    const stopped = group([test('skipped'), test('pending'), test('skipped', 'skip')], 1, [
      group([test('skipped')]),
    ]);
    expect(countResults([group([test('passed')], 0, [stopped])])).toEqual({
      passed: 1,
      failed: 3,
      skipped: 1,
    });
    // The same tests skipped with no error around them are skips.
    expect(countResults([group([test('skipped'), test('pending')])])).toEqual({
      passed: 0,
      failed: 0,
      skipped: 2,
    });
  });

  it('counts a file that failed to load, an error no test took, and unhandled errors', () => {
    expect(countResults([group([], 1)])).toEqual({ passed: 0, failed: 1, skipped: 0 });
    // An afterAll hook failed after its tests passed, next to a suite whose beforeAll failed.
    const afterAll = group([test('passed')], 1);
    const beforeAll = group([test('skipped')], 1);
    expect(countResults([group([], 0, [afterAll, beforeAll])])).toEqual({
      passed: 1,
      failed: 2,
      skipped: 0,
    });
    expect(countResults([], 2)).toEqual({ passed: 0, failed: 2, skipped: 0 });
  });

  it('writes the closing line, with the tests not run and why', () => {
    const counts = { passed: 340, failed: 0, skipped: 0 };
    expect(closingLine(counts)).toBe('Tests: 340 passed, 0 failed, 0 skipped');
    expect(closingLine(counts, { count: 14, reason: 'sandbox suite: bubblewrap missing' })).toBe(
      'Tests: 340 passed, 0 failed, 0 skipped, 14 not run (sandbox suite: bubblewrap missing)',
    );
    expect(closingLine(counts, { count: 0, reason: 'nothing' })).toBe(
      'Tests: 340 passed, 0 failed, 0 skipped',
    );
  });
});

describe('the summary reporter on a real Vitest run', () => {
  it('counts hook failures and files that do not load as failures', async () => {
    const folder = tempDir('skillhost-reporter-');
    symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'));
    writeTree(folder, {
      'hooks.test.ts': [
        "import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';",
        "describe('beforeAll fails', () => {",
        "  beforeAll(() => { throw new Error('no database'); });",
        "  it('one', () => {});",
        "  it('two', () => {});",
        "  it.skip('declared skipped', () => {});",
        '});',
        "describe('beforeEach fails', () => {",
        "  beforeEach(() => { throw new Error('no fixture'); });",
        "  it('three', () => {});",
        '});',
        "describe('afterAll fails', () => {",
        "  afterAll(() => { throw new Error('no cleanup'); });",
        "  it('four', () => {});",
        '});',
        "it('five', () => {});",
        "it.todo('six');",
        '',
      ].join('\n'),
      'file-hook.test.ts':
        "import { beforeAll, it } from 'vitest';\nbeforeAll(() => { throw new Error('boom'); });\nit('seven', () => {});\nit('eight', () => {});\n",
      'broken.test.ts':
        "import { it } from 'vitest';\nthrow new Error('cannot load');\nit('nine', () => {});\n",
      'missing-import.test.ts':
        "import './nowhere.js';\nimport { it } from 'vitest';\nit('ten', () => {});\n",
    });
    let output = '';
    const vitest = await createVitest(
      'test',
      {
        config: false,
        root: folder,
        include: ['*.test.ts'],
        watch: false,
        reporters: [new SummaryReporter({ write: (text) => (output += text) })],
      },
      {},
      {},
    );
    try {
      await vitest.start();
    } finally {
      await vitest.close();
    }
    // Passed: four, five. Failed: one, two (beforeAll), three (beforeEach), the afterAll error,
    // seven and eight (file-level beforeAll), and the two files that did not load.
    // Skipped: the declared skip and the todo.
    expect(output.trim()).toBe('Tests: 2 passed, 8 failed, 2 skipped');
  });
});
