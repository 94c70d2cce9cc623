import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';

/**
 * docs/design.md §8 / §17: a session inherits serve's environment, also on a tmux server someone started
 * earlier, and never the-loop's secrets — even the ones that server holds in its own global
 * environment, which `new-session -e` cannot take away.
 */
describe('the environment of a session on a tmux server that was already running', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    // Also kills the tmux server this test started on the fixture's private socket.
    await fixture?.dispose();
  });

  it("sees serve's variables and the user's PATH, and none of the secrets or npm's additions", async () => {
    fixture = await createServeFixture(
      ({ dir }) => ({
        standing: {
          autoStart: true,
          allowedRoots: ['work'],
          sessions: [
            {
              name: 'probe',
              harness: 'probe',
              cwd: 'work',
              description: 'writes its environment',
            },
          ],
        },
        defaults: { harness: 'probe', cwd: 'work' },
        harnesses: {
          probe: {
            kind: 'command',
            command: 'sh',
            args: [
              '-c',
              'env > "$0.tmp" && mv "$0.tmp" "$0"; exec sleep 600',
              path.join(dir, 'env.txt'),
            ],
          },
        },
      }),
      {
        env: {
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/fake-messages',
          GITHUB_TOKEN: 'serve-github-secret',
          // What `npm start` adds: its variables and its folders in front of the user's PATH.
          npm_lifecycle_event: 'start',
          npm_config_cache: '/tmp/npm-cache',
          INIT_CWD: '/somewhere',
          PATH: [
            path.resolve('node_modules/.bin'),
            '/node_modules/.bin',
            '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
            '/opt/user-first/bin',
            ...(process.env['PATH'] ?? '').split(':'),
          ].join(':'),
        },
      },
    );
    const userPath = ['/opt/user-first/bin', ...(process.env['PATH'] ?? '').split(':')].join(':');
    // Someone's tmux server, running before serve, with a secret in its global environment.
    await execa(
      'tmux',
      ['-L', fixture.socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'earlier', 'sleep 600'],
      {
        env: { SLACK_BOT_TOKEN: 'xoxb-server-secret', PATH: process.env['PATH'] ?? '' },
      },
    );
    await execa('tmux', [
      '-L',
      fixture.socket,
      'set-environment',
      '-g',
      'GITHUB_WEBHOOK_SECRET',
      'hook-secret',
    ]);
    const globalEnv = (await execa('tmux', ['-L', fixture.socket, 'show-environment', '-g']))
      .stdout;
    expect(globalEnv).toContain('SLACK_BOT_TOKEN=xoxb-server-secret');
    expect(globalEnv).toContain('GITHUB_WEBHOOK_SECRET=hook-secret');

    await fixture.start();
    const file = path.join(fixture.dir, 'env.txt');
    const text = await eventually(() => readFile(file, 'utf8').catch(() => undefined), {
      what: 'the probe session to write its environment',
      timeoutMs: 15_000,
    });
    const seen = new Map(
      text
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(seen.get('ANTHROPIC_BASE_URL')).toBe('http://127.0.0.1:9/fake-messages');
    expect(seen.get('THE_LOOP_SESSION')).toBe('standing:probe');
    expect(seen.has('THE_LOOP_SESSION_TOKEN')).toBe(true);
    for (const secret of ['SLACK_BOT_TOKEN', 'GITHUB_TOKEN', 'GITHUB_WEBHOOK_SECRET']) {
      expect(seen.has(secret), secret).toBe(false);
    }
    expect(text).not.toMatch(/server-secret|hook-secret|serve-github-secret/);
    expect([...seen.keys()].filter((name) => name.startsWith('npm_'))).toEqual([]);
    expect(seen.has('INIT_CWD')).toBe(false);
    // The user's order, with the-loop's bin/ last.
    expect(seen.get('PATH')).toBe(`${userPath}:${path.resolve('bin')}`);
    // tmux's own terminal, not serve's.
    expect(seen.get('TMUX')).toBeTruthy();
  }, 60_000);
});
