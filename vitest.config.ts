import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    setupFiles: ['./test/helpers/setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
