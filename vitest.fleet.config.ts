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
    pool: 'forks',
    // Each test runs a nats-server and up to three serves.
    maxWorkers: 1,
    reporters: ['default'],
  },
});
