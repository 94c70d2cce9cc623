import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standingTarget } from '../../src/refs.js';
import { realTierUnavailable } from './real-tier-availability.js';
import { TEST_API_KEY } from './scratch-home.js';
import { startRealClaude, type RealClaude } from './start-real-claude.js';

const unavailable = realTierUnavailable();

/** Where a user's own tools come first on PATH (pyenv shims, a newer node). */
const userFirst = '/opt/the-loop-real-tier/user-first/bin';

/**
 * Issue 11 item 7 with the real Claude Code: its environment comes from serve's, also when the
 * tmux server was started earlier by someone else (tmux would give a new session only the server's
 * own environment), and PATH keeps the user's order with the-loop's bin/ at the end.
 */
describe.skipIf(unavailable !== undefined)(
  'the real Claude Code on a tmux server that was already running',
  () => {
    let claude: RealClaude;

    beforeAll(async () => {
      claude = await startRealClaude({
        throughServeEnv: { path: [userFirst] },
        // Started before serve, with an environment that has none of serve's variables.
        beforeServe: async (serve) => {
          await execa(
            'tmux',
            [
              '-L',
              serve.socket,
              '-f',
              '/dev/null',
              'new-session',
              '-d',
              '-s',
              'earlier',
              'sleep 600',
            ],
            { env: { PATH: '/usr/bin:/bin', HOME: tmpdir() }, extendEnv: false },
          );
        },
      });
      const created = await claude.serve.cli(['standing', 'create', 'env']);
      expect(created.exitCode, created.stderr).toBe(0);
    });

    afterAll(async () => {
      await claude?.dispose();
    });

    it("7: ANTHROPIC_* and HOME reach claude from serve's environment, and PATH keeps the user's order", async () => {
      // Only with ANTHROPIC_BASE_URL and the key does Claude Code talk to the fake at all.
      const boot = await claude.requestWith('You are the standing session `env`');
      expect(boot.headers['x-api-key']).toBe(TEST_API_KEY);
      const pid = (
        await execa('tmux', [
          '-L',
          claude.serve.socket,
          'display-message',
          '-p',
          '-t',
          `=${standingTarget('env')}:`,
          '#{pane_pid}',
        ])
      ).stdout.trim();
      // The pane's shell execs the harness: the pane's process is Claude Code itself.
      const environ = new Map(
        (await readFile(`/proc/${pid}/environ`, 'utf8'))
          .split('\0')
          .filter((entry) => entry.includes('='))
          .map((entry) => [
            entry.slice(0, entry.indexOf('=')),
            entry.slice(entry.indexOf('=') + 1),
          ]),
      );
      expect(environ.get('ANTHROPIC_BASE_URL')).toBe(claude.fake.url);
      expect(environ.get('HOME')).toBe(claude.home);
      const entries = (environ.get('PATH') ?? '').split(':');
      expect(entries[0]).toBe(userFirst);
      expect(entries.at(-1)).toBe(path.resolve('bin'));
      expect(
        entries.filter((entry) => entry === path.dirname(process.execPath)).length,
      ).toBeLessThanOrEqual(1);
      expect(environ.get('THE_LOOP_SESSION')).toBe('standing:env');
    });
  },
);
