import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every core: vitest's default in a run is one worker fewer than the cores (one on CI's two), and most files wait on
    // servers, browsers and PostgreSQL rather than compute. On 2 cores, one worker: LMDB lane 807 s, PostgreSQL
    // lane 851 s (CI, stop 28); two workers: 522 s and 511 s, every test passing on both.
    maxWorkers: '100%',
    // AVM_TEST_BACKEND=postgresql (npm run test:pg): the whole suite with the services' state in PostgreSQL.
    globalSetup: ['test/support/pg-lane-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
