import { defineConfig } from 'vitest/config';

/**
 * The real-client tier (`npm run test:real`, docs/design.md §11): the real Claude Code in tmux under
 * `the-loop serve`, against the fake Messages API. Kept out of `npm test` (vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/real/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each test runs a serve and one or two Claude Code processes (~200 MB each); two files at a
    // time keeps a 2-core machine responsive.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
