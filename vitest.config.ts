import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // AVM_TEST_BACKEND=postgresql (npm run test:pg): the whole suite with the services' state in PostgreSQL.
    globalSetup: ['test/support/pg-lane-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
