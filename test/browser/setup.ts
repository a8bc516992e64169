// Setup of the browser suite: its preflight (preflight.ts) decided once whether it can run. Where
// it is required but cannot, every test fails with the reason; where it cannot and is not
// required, every test is skipped, and the summary counts them as not run, in one line.
import { beforeAll, beforeEach, inject } from 'vitest';
import { requiredFailure } from '../helpers/suite-plan.js';

beforeAll(() => {
  const plan = inject('suitePlan');
  if (plan?.mode === 'fail') throw new Error(requiredFailure(plan));
});

beforeEach((context) => {
  if (inject('suitePlan')?.mode === 'skip') context.skip();
});
