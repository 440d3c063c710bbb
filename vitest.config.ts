import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The build first (the CLI tests run dist/), then the test run's private redis-server and the fault
    // suite's seed.
    globalSetup: ['test/setup/build.ts', 'test/setup/redis.ts', 'test/setup/seed.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Fail when a test leaves handles (servers, sockets, workers) open.
    teardownTimeout: 10_000,
  },
});
