// Setup of the sandbox suite: where the sandbox is required but unusable (vitest.config.ts
// decides it once), every test of the suite fails with the reason, never as a skip.
import { beforeAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the sandbox suite cannot pass here; empty when bubblewrap works. */
    sandboxFailure: string;
  }
}

beforeAll(() => {
  const failure = inject('sandboxFailure');
  if (failure !== '') throw new Error(failure);
});
