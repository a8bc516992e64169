import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { root } from '../helpers/built.js';
import { clientsRequiredBy, planClientsSuite } from '../helpers/clients-suite.js';
import { notRunLine, requiredFailure, requiredLine } from '../helpers/suite-plan.js';
import { closingLine } from '../helpers/summary.js';
import SummaryReporter from '../helpers/summary-reporter.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const OFFLINE = { available: false, reason: 'cannot install @openai/codex@0.171.0: ENOTFOUND' };

describe('the clients suite preflight', () => {
  it('requires the clients under CI or SKILLHOST_REQUIRE_CLIENTS=1 only', () => {
    expect(clientsRequiredBy({})).toBe('');
    expect(clientsRequiredBy({ SKILLHOST_REQUIRE_SANDBOX: '1' })).toBe('');
    expect(clientsRequiredBy({ SKILLHOST_REQUIRE_CLIENTS: '1' })).toBe(
      'SKILLHOST_REQUIRE_CLIENTS=1',
    );
    expect(clientsRequiredBy({ CI: 'true' })).toBe('CI=true');
    expect(clientsRequiredBy({ CI: '0' })).toBe('');
  });

  it('runs where the preflight passes; is left out, in one line, where it does not', () => {
    expect(planClientsSuite({}, { available: true, reason: 'installed' }).mode).toBe('run');
    const plan = planClientsSuite({}, OFFLINE);
    expect(plan).toEqual({
      suite: 'clients',
      mode: 'skip',
      reason: OFFLINE.reason,
      hint: '',
      requiredBy: '',
    });
    expect(notRunLine(plan, 40)).toBe(`clients suite: 40 tests not run: ${OFFLINE.reason}`);
    const strace = planClientsSuite(
      {},
      { available: false, reason: 'strace missing', hint: 'apt-get install strace' },
    );
    expect(notRunLine(strace, 1)).toBe(
      'clients suite: 1 test not run: strace missing; apt-get install strace',
    );
  });

  it('fails where the clients are required and the preflight does not pass', () => {
    const plan = planClientsSuite({ SKILLHOST_REQUIRE_CLIENTS: '1' }, OFFLINE);
    expect(plan.mode).toBe('fail');
    expect(requiredFailure(plan)).toBe(
      `The clients suite must run here (SKILLHOST_REQUIRE_CLIENTS=1), but it cannot: ${OFFLINE.reason}`,
    );
    expect(requiredLine(plan, 3)).toBe(
      `clients suite: 3 tests failed: ${OFFLINE.reason} (required here: SKILLHOST_REQUIRE_CLIENTS=1)`,
    );
  });

  it('names every suite left out in the closing line', () => {
    expect(
      closingLine({ passed: 300, failed: 0, skipped: 1 }, [
        { count: 14, reason: 'sandbox suite: bubblewrap missing' },
        { count: 0, reason: 'nothing' },
        { count: 40, reason: 'clients suite: strace missing' },
      ]),
    ).toBe(
      'Tests: 300 passed, 0 failed, 1 skipped, 54 not run (sandbox suite: bubblewrap missing; clients suite: strace missing)',
    );
  });
});

/** Runs a two-test suite whose globalSetup provides `plan`, with the clients suite's setup file. */
async function runWithPlan(plan: unknown): Promise<string> {
  const folder = tempDir('skillhost-preflight-');
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'));
  writeTree(folder, {
    'preflight.ts': `export default function setup(project) { project.provide('suitePlan', ${JSON.stringify(plan)}); }\n`,
    'two.test.ts': "import { it } from 'vitest';\nit('one', () => {});\nit('two', () => {});\n",
  });
  let output = '';
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: folder,
      include: ['*.test.ts'],
      globalSetup: ['./preflight.ts'],
      setupFiles: [join(root, 'test', 'clients', 'setup.ts')],
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
  return output.trim();
}

describe('a suite whose preflight runs as its globalSetup, on a real Vitest run', () => {
  it('counts its tests as not run, in one line, when the preflight fails', async () => {
    const plan = planClientsSuite({}, OFFLINE);
    expect(await runWithPlan(plan)).toBe(
      [
        `clients suite: 2 tests not run: ${OFFLINE.reason}`,
        '',
        `Tests: 0 passed, 0 failed, 0 skipped, 2 not run (clients suite: ${OFFLINE.reason})`,
      ].join('\n'),
    );
  });

  it('fails every test, in one line, when the preflight fails where the suite is required', async () => {
    const plan = planClientsSuite({ CI: 'true' }, OFFLINE);
    expect(await runWithPlan(plan)).toBe(
      [
        `clients suite: 2 tests failed: ${OFFLINE.reason} (required here: CI=true)`,
        '',
        'Tests: 0 passed, 2 failed, 0 skipped',
      ].join('\n'),
    );
  });

  it('runs the tests when the preflight passes', async () => {
    const plan = planClientsSuite({ CI: 'true' }, { available: true, reason: 'installed' });
    expect(await runWithPlan(plan)).toBe('Tests: 2 passed, 0 failed, 0 skipped');
  });
});
