import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    // expect.poll waits on what a page or a process shows; under a busy machine that takes more
    // than vitest's default second.
    expect: { poll: { timeout: 20_000, interval: 50 } },
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
