import { defineConfig } from 'vitest/config';

/**
 * The fleet tier (`npm run test:fleet`, docs/design.md §21): a real `nats-server` with JetStream
 * on a free loopback port and a temp store, and several serves behind one fake Slack. Kept out of
 * `npm test` (vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Tests that start processes (serve, tmux, real clients) share two loaded cores in CI: one
    // that fails is tried once more, and .ci/run names every test that needed a second try, so a
    // flake stays in view and gets fixed instead of blocking every change behind it.
    retry: 1,
    pool: 'forks',
    // Each test runs a nats-server and up to three serves.
    maxWorkers: 1,
    reporters: ['default'],
  },
});
