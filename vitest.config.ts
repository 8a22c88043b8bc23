import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on CI's 2 cores. The API tests
    // mostly wait on PostgreSQL, and each file has a database of its own (test/helpers.ts), so two
    // files at once take 3.7 minutes where one at a time took 6 (docs/decisions/0038).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          // A timeout only catches a test that hangs; speed lives in the benchmarks. The property
          // tests (fast-check, a hundred inputs each) take about a second alone and took 6 s while
          // the API files and a browser shared the 2 cores, past Vitest's default of 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/bench/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
