import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests that start processes (serve, tmux, real clients) share two loaded cores in CI: one
    // that fails is tried once more, and .ci/run names every test that needed a second try, so a
    // flake stays in view and gets fixed instead of blocking every change behind it.
    retry: 1,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most files wait on
    // tmux, child processes and sockets rather than compute, and one at a time took about nine
    // minutes against the five docs/design.md §23 allows.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'processes',
          include: ['test/**/*.test.ts'],
          // The real-client tier needs a ~200 MB download and root for its namespace: `npm run test:real`.
          // The browser tier needs Chromium: `npm run test:browser` (vitest.browser.config.ts).
          // The fleet tier needs a real nats-server: `npm run test:fleet`.
          exclude: [
            'test/unit/**',
            'test/real/**',
            'test/browser/**',
            'test/fleet/**',
            'node_modules/**',
          ],
          // End-to-end tests run bin/the-loop, which loads dist/: built once before them.
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Pure functions and in-process fakes: one process runs many files, sparing a fork and
          // a fresh import of the test runner per file (177 files: about 40 s down to 17).
          isolate: false,
        },
      },
    ],
  },
});
