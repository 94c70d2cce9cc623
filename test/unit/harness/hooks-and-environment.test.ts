import { describe, expect, it } from 'vitest';
import { hookEvents } from '../../../src/hooks/hook-table.js';
import {
  claudeHookEvents,
  claudeHooks,
  claudeHooksVersion,
  claudeSettings,
  postAllowRule,
} from '../../../src/harness/claude-settings.js';
import { needsRestart } from '../../../src/harness/needs-restart.js';
import { envFileText, sessionEnvironment } from '../../../src/harness/session-environment.js';
import { isSecretVariable } from '../../../src/tmux/tmux-environment.js';

const bin = '/opt/the-loop/bin';
const session = { THE_LOOP_SESSION: 'standing:a', THE_LOOP_SESSION_TOKEN: 'tok' };

describe('sessionEnvironment', () => {
  it.each<[string, NodeJS.ProcessEnv, Record<string, string | undefined>]>([
    [
      'passes what serve has, the session vars on top',
      { HOME: '/h', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', THE_LOOP_SESSION: 'stale' },
      { HOME: '/h', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', THE_LOOP_SESSION: 'standing:a' },
    ],
    [
      "never passes the-loop's secrets",
      {
        SLACK_BOT_TOKEN: 'x',
        SLACK_APP_TOKEN: 'x',
        SLACK_SIGNING_SECRET: 'x',
        SLACK_SOMETHING_TOKEN: 'x',
        GITHUB_TOKEN: 'x',
        GITHUB_WEBHOOK_SECRET: 'x',
        THE_LOOP_API_TOKEN: 'x',
        SLACK_API_URL: 'http://slack',
        GITHUB_API_URL: 'http://gh',
      },
      {
        SLACK_BOT_TOKEN: undefined,
        SLACK_SOMETHING_TOKEN: undefined,
        GITHUB_TOKEN: undefined,
        THE_LOOP_API_TOKEN: undefined,
        THE_LOOP_SESSION_TOKEN: 'tok',
        SLACK_API_URL: 'http://slack',
        GITHUB_API_URL: 'http://gh',
      },
    ],
    [
      "drops npm's variables when npm started serve",
      { npm_lifecycle_event: 'start', npm_config_cache: '/c', INIT_CWD: '/r', NODE: '/n', A: '1' },
      { npm_lifecycle_event: undefined, npm_config_cache: undefined, INIT_CWD: undefined, A: '1' },
    ],
    [
      'keeps INIT_CWD and NODE that are the user’s own (no npm in sight)',
      { INIT_CWD: '/r', NODE: '/n' },
      { INIT_CWD: '/r', NODE: '/n' },
    ],
    [
      "drops serve's terminal and names a shell cannot hold",
      { TERM: 'xterm', TMUX: '/tmp/x,1,0', PWD: '/r', 'BASH_FUNC_f%%': '() { :; }', B: '2' },
      { TERM: undefined, TMUX: undefined, PWD: undefined, 'BASH_FUNC_f%%': undefined, B: '2' },
    ],
  ])('%s', (_title, serveEnv, expected) => {
    const { set } = sessionEnvironment({ serveEnv, sessionVars: session, loopBinDir: bin });
    for (const [name, value] of Object.entries(expected)) expect(set[name]).toBe(value);
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      "keeps the user's order and appends bin/",
      { PATH: '/pyenv/shims:/usr/bin' },
      '/pyenv/shims:/usr/bin:/opt/the-loop/bin',
    ],
    [
      'does not move a bin/ the user already has',
      { PATH: '/opt/the-loop/bin:/usr/bin' },
      '/opt/the-loop/bin:/usr/bin',
    ],
    ['starts from nothing', {}, '/opt/the-loop/bin'],
    [
      'drops the folders npm put in front, and only those',
      {
        npm_lifecycle_event: 'start',
        PATH: '/r/node_modules/.bin:/node_modules/.bin:/usr/lib/npm/node-gyp-bin:/pyenv/shims:/w/node_modules/.bin:/usr/bin',
      },
      '/pyenv/shims:/w/node_modules/.bin:/usr/bin:/opt/the-loop/bin',
    ],
    [
      'keeps a leading node_modules/.bin when npm did not start serve',
      { PATH: '/r/node_modules/.bin:/usr/bin' },
      '/r/node_modules/.bin:/usr/bin:/opt/the-loop/bin',
    ],
  ])('PATH: %s', (_title, serveEnv, expected) => {
    const { set } = sessionEnvironment({ serveEnv, sessionVars: session, loopBinDir: bin });
    expect(set['PATH']).toBe(expected);
  });

  it('unsets every secret a tmux server may hold, but none it sets', () => {
    const { unset } = sessionEnvironment({
      serveEnv: { SLACK_USER_TOKEN_2: 'x' },
      sessionVars: session,
      loopBinDir: bin,
    });
    expect(unset).toEqual(
      expect.arrayContaining([
        'SLACK_BOT_TOKEN',
        'SLACK_APP_TOKEN',
        'SLACK_SIGNING_SECRET',
        'GITHUB_TOKEN',
        'GITHUB_WEBHOOK_SECRET',
        'THE_LOOP_API_TOKEN',
        'SLACK_USER_TOKEN_2',
      ]),
    );
    expect(unset).not.toContain('THE_LOOP_SESSION_TOKEN');
  });

  it("unsets the secrets and npm's variables a server started earlier holds globally", () => {
    const { unset } = sessionEnvironment({
      serveEnv: { HOME: '/h' },
      sessionVars: session,
      loopBinDir: bin,
      serverNames: ['HOME', 'npm_config_cache', 'INIT_CWD', 'SLACK_OTHER_SECRET', 'DISPLAY'],
    });
    expect(unset).toEqual(
      expect.arrayContaining(['npm_config_cache', 'INIT_CWD', 'SLACK_OTHER_SECRET']),
    );
    expect(unset).not.toContain('HOME');
    expect(unset).not.toContain('DISPLAY');
  });

  it.each([
    ['SLACK_BOT_TOKEN', true],
    ['GITHUB_APP_SECRET', true],
    ['SLACK_API_URL', false],
    ['GITHUB_API_URL', false],
    ['ANTHROPIC_API_KEY', false],
    ['THE_LOOP_API_TOKEN', true],
  ])('isSecretVariable(%s) = %s', (name, secret) => {
    expect(isSecretVariable(name)).toBe(secret);
  });
});

describe('envFileText', () => {
  it('survives any value a shell could misread, read back by a real sh', async () => {
    const { execa } = await import('execa');
    const values = {
      PLAIN: 'x',
      QUOTES: `it's "quoted"`,
      SHELLY: '$(touch /tmp/never) `id` $HOME ;|&<>*?',
      LINES: 'one\ntwo\n',
      EMPTY: '',
    };
    // sh sources the file, then node reports what it was given.
    const report = `process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(
      Object.keys(values),
    )}.map((name) => [name, process.env[name]]))))`;
    const result = await execa('/bin/sh', [
      '-c',
      `${envFileText(values)}exec "$0" -e "$1"`,
      process.execPath,
      report,
    ]);
    expect(JSON.parse(String(result.stdout))).toEqual(values);
  });
});

describe('claude settings', () => {
  it('allows `the-loop post` without a prompt, and nothing more', () => {
    expect(claudeSettings(['/n', '/b/the-loop'])['permissions']).toEqual({
      allow: [postAllowRule],
    });
    expect(postAllowRule).toBe('Bash(the-loop post:*)');
  });

  it('takes new hooks as rows: matcher and wait go into the command and its timeout', () => {
    const settings = claudeSettings(
      ['/n', '/b/the-loop'],
      [...claudeHooks, { event: 'SubagentStop', waitSeconds: 600, matcher: 'Bash' }],
    ) as { hooks: Record<string, unknown> };
    expect(settings.hooks['SubagentStop']).toEqual([
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: `'/b/the-loop-hook' SubagentStop 600 '/n' '/b/the-loop'`,
            timeout: 604,
          },
        ],
      },
    ]);
  });

  it('installs only hooks serve has a handler for', () => {
    expect([...hookEvents]).toEqual(expect.arrayContaining([...claudeHookEvents]));
  });

  it('refuses a row the shell could misread', () => {
    expect(() => claudeSettings(['x'], [{ event: 'Stop; rm -rf /', waitSeconds: 1 }])).toThrow();
    expect(() => claudeSettings(['x'], [{ event: 'Stop', waitSeconds: 0 }])).toThrow();
  });

  it('names the hook table in its version, so a new row flags old sessions', () => {
    expect(claudeHooksVersion()).toMatch(/^[0-9a-f]{12}$/);
    expect(
      claudeHooksVersion([...claudeHooks, { event: 'SubagentStop', waitSeconds: 0.7 }]),
    ).not.toBe(claudeHooksVersion());
  });
});

describe('needsRestart', () => {
  const current = claudeHooksVersion();
  it.each<
    [string, { status: string; hooksVersion?: string }, 'claude' | 'command' | undefined, boolean]
  >([
    [
      'running claude with the current hooks',
      { status: 'running', hooksVersion: current },
      'claude',
      false,
    ],
    ['running claude started by an older the-loop', { status: 'running' }, 'claude', true],
    [
      'running claude with another hook table',
      { status: 'running', hooksVersion: 'abc' },
      'claude',
      true,
    ],
    ['stopped: the next start installs the new hooks', { status: 'stopped' }, 'claude', false],
    ['a command harness has no hooks', { status: 'running' }, 'command', false],
    ['a harness no longer configured', { status: 'running' }, undefined, false],
  ])('%s → %s', (_title, record, kind, expected) => {
    expect(needsRestart(record, kind ? { kind } : undefined)).toBe(expected);
  });
});
