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
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'] },
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
