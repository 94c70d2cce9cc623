import { defineConfig } from 'vitest/config';

/**
 * The browser tier (`npm run test:browser`, docs/dashboard.md): the dashboard in a real Chromium
 * driven by playwright-core, against a real `the-loop serve` with the fake agent. Kept out of
 * `npm test` (vitest.config.ts): it needs Debian's chromium, and where that is missing every test
 * is skipped with the reason.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Tests that start processes (serve, tmux, real clients) share two loaded cores in CI: one
    // that fails is tried once more, and .ci/run names every test that needed a second try, so a
    // flake stays in view and gets fixed instead of blocking every change behind it.
    retry: 1,
    pool: 'forks',
    // Each file runs a serve and a Chromium; two at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
