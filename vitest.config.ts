import { configDefaults, defineConfig } from 'vitest/config';

// The build first (the CLI tests run dist/), then a private redis-server for the test run.
const setup = ['test/setup/build.ts', 'test/setup/redis.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Fail when a test leaves handles (servers, sockets, workers) open.
    teardownTimeout: 10_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          // Two files at a time: vitest's default is one less than the cores, one on CI's two, where the
          // run took 22 minutes; most files wait on Redis, PostgreSQL, child processes or a browser.
          maxWorkers: 2,
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/fault/**'],
          globalSetup: setup,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The fault scenarios run real processes, kill them and time their exits: they run after the
        // rest, not beside it, so that neither slows the other's timing-sensitive checks. One seed for
        // all of them (test/setup/seed.ts).
        extends: true,
        test: {
          name: 'fault',
          maxWorkers: 1,
          include: ['test/fault/**/*.test.ts'],
          globalSetup: [...setup, 'test/setup/seed.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
