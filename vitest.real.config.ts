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
    // Tests that start processes (serve, tmux, real clients) share two loaded cores in CI: one
    // that fails is tried once more, and .ci/run names every test that needed a second try, so a
    // flake stays in view and gets fixed instead of blocking every change behind it.
    retry: 1,
    pool: 'forks',
    // Each test runs a serve and one or two Claude Code processes (~200 MB each); two files at a
    // time keeps a 2-core machine responsive.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
