import { describe, expect, it } from 'vitest';
import { checkConfig } from '../../../src/doctor/check-config.js';
import { checkControlSocket } from '../../../src/doctor/check-control-socket.js';
import { checkGithub, type GithubFacts } from '../../../src/doctor/check-github.js';
import { checkHarnesses } from '../../../src/doctor/check-harnesses.js';
import { checkNodeVersion } from '../../../src/doctor/check-node-version.js';
import { checkSessionCwds } from '../../../src/doctor/check-session-cwds.js';
import { checkSlack, type SlackFacts } from '../../../src/doctor/check-slack.js';
import { checkStateModes } from '../../../src/doctor/check-state-modes.js';
import { checkTmuxVersion } from '../../../src/doctor/check-tmux-version.js';
import type { DoctorCheck } from '../../../src/doctor/doctor-check.js';
import { doctorReport, formatDoctorLines } from '../../../src/doctor/format-doctor-report.js';
import type { WebProbe } from '../../../src/doctor/web-probe.js';

const statusOf = (checks: readonly DoctorCheck[]) =>
  checks.map((check) => `${check.status} ${check.id}`);

describe('checkNodeVersion', () => {
  it.each([
    ['20.19.0', '>=20.19', 'ok'],
    ['20.20.2', '>=20.19', 'ok'],
    ['v22.1.0', '>=20.19', 'ok'],
    ['20.18.3', '>=20.19', 'fail'],
    ['18.20.0', '>=20.19', 'fail'],
    ['20.19.0', '^20.19 || >=22', 'warn'],
  ] as const)('Node %s against %s → %s', (version, required, status) => {
    const check = checkNodeVersion({ version, required });
    expect(check.status).toBe(status);
    expect(check.id).toBe('node');
    if (status !== 'ok') expect(check.remedy).not.toBe('');
  });
});

describe('checkTmuxVersion', () => {
  it.each([
    [{ output: 'tmux 3.4\n' }, 'ok'],
    [{ output: 'tmux 3.5a' }, 'ok'],
    [{ output: 'tmux next-3.6' }, 'ok'],
    [{ output: 'tmux master' }, 'ok'],
    [{ output: 'tmux 3.3a' }, 'warn'],
    [{ output: 'tmux 2.9' }, 'warn'],
    [{ error: 'tmux is not on PATH' }, 'fail'],
  ] as const)('%j → %s', (facts, status) => {
    expect(checkTmuxVersion(facts).status).toBe(status);
  });

  it('below 3.4 names the dead-pane crash and that the-loop guards against it', () => {
    const check = checkTmuxVersion({ output: 'tmux 3.3a' });
    expect(check.message).toContain('crashes its whole server');
    expect(check.message).toContain('dead pane');
    expect(check.message).toContain('the-loop guards against it');
  });
});

describe('checkHarnesses', () => {
  it('ok when found; warn when missing and unused; fail when missing and used', () => {
    const checks = checkHarnesses([
      { name: 'shell', command: 'bash', foundAt: '/usr/bin/bash', usedBy: ['defaults.harness'] },
      { name: 'claude', command: 'claude', usedBy: [] },
      { name: 'codex', command: 'codex', usedBy: ['standing session review'] },
      { name: 'aider', command: 'aider', usedBy: ['defaults.harness'] },
    ]);
    expect(statusOf(checks)).toEqual([
      'ok harness:shell',
      'warn harness:claude',
      'fail harness:codex',
      'fail harness:aider',
    ]);
    expect(checks[2]?.message).toContain('standing session review');
    expect(checks[2]?.remedy).toContain('harnesses.codex.command');
  });
});

describe('checkSessionCwds', () => {
  it('one line per session; a missing or non-folder cwd fails with a remedy for its source', () => {
    const checks = checkSessionCwds([
      { name: 'demo', source: 'declared', cwd: '/repo', kind: 'directory' },
      { name: 'gone', source: 'declared', cwd: '/nowhere', kind: 'missing' },
      { name: 'made', source: 'created', cwd: '/etc/hosts', kind: 'not-directory' },
    ]);
    expect(statusOf(checks)).toEqual(['ok cwd:demo', 'fail cwd:gone', 'fail cwd:made']);
    expect(checks[1]?.remedy).toContain('in the config');
    expect(checks[2]?.message).toContain('is not a folder');
    expect(checks[2]?.remedy).toContain('the-loop standing delete made');
  });

  it('says so when there are none', () => {
    expect(statusOf(checkSessionCwds([]))).toEqual(['ok cwd']);
  });
});

describe('checkStateModes', () => {
  it.each([
    ['a root not made yet', { root: '/s', exists: false as const }, 'ok'],
    [
      'private folders and files',
      {
        root: '/s',
        exists: true as const,
        entries: [
          { path: '/s', kind: 'folder' as const, mode: 0o700 },
          { path: '/s/events.jsonl', kind: 'file' as const, mode: 0o600 },
          { path: '/s/x.json', kind: 'file' as const, mode: 0o400 },
        ],
      },
      'ok',
    ],
    [
      'a folder others may enter',
      {
        root: '/s',
        exists: true as const,
        entries: [{ path: '/s', kind: 'folder' as const, mode: 0o755 }],
      },
      'fail',
    ],
    [
      'a file the group may read',
      {
        root: '/s',
        exists: true as const,
        entries: [
          { path: '/s', kind: 'folder' as const, mode: 0o700 },
          { path: '/s/standing/a.json', kind: 'file' as const, mode: 0o640 },
        ],
      },
      'fail',
    ],
  ])('%s → %s', (_, facts, status) => {
    const check = checkStateModes(facts);
    expect(check.status).toBe(status);
    if (status === 'fail') expect(check.remedy).toContain('chmod -R go-rwx /s');
  });
});

describe('checkControlSocket', () => {
  it.each([
    [{ socketPath: '/s/control.sock', state: 'absent' as const }, 'warn', 'not running'],
    [{ socketPath: '/s/control.sock', state: 'silent' as const }, 'warn', 'nothing answers'],
    [
      { socketPath: '/s/control.sock', state: 'answering' as const, version: '0.1.0' },
      'ok',
      'answers',
    ],
    [
      { socketPath: '/s/control.sock', state: 'answering' as const, version: '0.0.9' },
      'warn',
      'serve 0.0.9 is running',
    ],
  ])('%j → %s', (facts, status, words) => {
    const check = checkControlSocket(facts, '0.1.0');
    expect(check.status).toBe(status);
    expect(check.message).toContain(words);
  });
});

describe('checkConfig', () => {
  it('a missing file fails and points at init', () => {
    const check = checkConfig({
      refused: {
        configPath: '/r/.the-loop/config.yaml',
        issues: [{ path: '', code: 'file_missing', message: 'there is no config file' }],
      },
    });
    expect(check).toMatchObject({ id: 'config', status: 'fail' });
    expect(check.remedy).toContain('the-loop init');
  });

  it('a refused file names each key', () => {
    const check = checkConfig({
      refused: {
        configPath: '/c.yaml',
        issues: [
          { path: 'slack.mode', code: 'invalid_value', message: 'use socket or http' },
          { path: 'tmux.sockt', code: 'unknown_key', message: 'did you mean tmux.socket?' },
        ],
      },
    });
    expect(check.status).toBe('fail');
    expect(check.message).toContain('slack.mode: use socket or http; tmux.sockt:');
  });
});

const answered = (status: number, body: unknown, scopes?: string[]): WebProbe => ({
  kind: 'answered',
  status,
  body,
  ...(scopes ? { scopes } : {}),
});
const down: WebProbe = { kind: 'unreachable', error: 'connect ECONNREFUSED' };

const slackBase: SlackFacts = {
  enabled: true,
  mode: 'socket',
  apiUrl: 'https://slack.com/api/',
  hasBotToken: true,
  hasAppToken: true,
  hasSigningSecret: false,
  wantedScopes: ['chat:write', 'commands'],
  authTest: answered(200, { ok: true, user: 'loop', team: 'Acme' }, ['chat:write', 'commands']),
  connectionsOpen: answered(200, { ok: true, url: 'wss://x' }),
};

describe('checkSlack', () => {
  it.each([
    ['everything right', {}, ['ok slack-token', 'ok slack-scopes', 'ok slack-socket-mode']],
    ['Slack disabled', { enabled: false }, ['warn slack']],
    ['no bot token', { hasBotToken: false, authTest: undefined }, ['warn slack']],
    [
      'a refused bot token',
      { authTest: answered(200, { ok: false, error: 'invalid_auth' }) },
      ['fail slack-token', 'ok slack-socket-mode'],
    ],
    [
      'Slack unreachable',
      { authTest: down, connectionsOpen: down },
      ['fail slack-token', 'fail slack-socket-mode'],
    ],
    [
      'a missing scope',
      { authTest: answered(200, { ok: true }, ['chat:write']) },
      ['ok slack-token', 'fail slack-scopes', 'ok slack-socket-mode'],
    ],
    [
      'no scopes header',
      { authTest: answered(200, { ok: true }) },
      ['ok slack-token', 'warn slack-scopes', 'ok slack-socket-mode'],
    ],
    [
      'no app token in socket mode',
      { hasAppToken: false, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-socket-mode'],
    ],
    [
      'a refused app token',
      { connectionsOpen: answered(200, { ok: false, error: 'invalid_auth' }) },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-socket-mode'],
    ],
    [
      'HTTP mode without a signing secret',
      { mode: 'http' as const, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'fail slack-signing-secret'],
    ],
    [
      'HTTP mode with a signing secret',
      { mode: 'http' as const, hasSigningSecret: true, connectionsOpen: undefined },
      ['ok slack-token', 'ok slack-scopes', 'ok slack-signing-secret'],
    ],
  ])('%s', (_, change, expected) => {
    expect(statusOf(checkSlack({ ...slackBase, ...change }))).toEqual(expected);
  });

  it('names the missing scopes and the error Slack gave', () => {
    const scopes = checkSlack({
      ...slackBase,
      authTest: answered(200, { ok: true }, ['commands']),
    });
    expect(scopes[1]?.message).toContain('chat:write');
    expect(scopes[1]?.message).not.toContain('commands');
    const refused = checkSlack({
      ...slackBase,
      authTest: answered(200, { ok: false, error: 'token_revoked' }),
    });
    expect(refused[0]?.message).toContain('token_revoked');
  });
});

const githubBase: GithubFacts = {
  apiUrl: 'https://api.github.com',
  hasToken: true,
  user: answered(200, { login: 'loop-bot' }),
  repos: [{ repo: 'octo/repo', probe: answered(200, { full_name: 'octo/repo' }) }],
  webhook: {
    state: 'signed',
    secretLength: 64,
    url: 'http://127.0.0.1:3000/github/webhook',
    poll: false,
    pollSeconds: 30,
  },
};

describe('checkGithub', () => {
  const webhook = (change: Partial<GithubFacts['webhook']>) => ({
    webhook: { ...githubBase.webhook, ...change },
  });
  it.each([
    ['everything right', {}, ['ok github-token', 'ok github-repo:octo/repo', 'ok github-webhook']],
    ['no token', { hasToken: false, user: undefined }, ['warn github']],
    [
      'a refused token',
      { user: answered(401, { message: 'Bad credentials' }) },
      ['fail github-token'],
    ],
    ['GitHub unreachable', { user: down }, ['fail github-token']],
    [
      'an app installation token (GET /user is for users)',
      { user: answered(403, { message: 'Resource not accessible by integration' }) },
      ['warn github-token', 'ok github-repo:octo/repo', 'ok github-webhook'],
    ],
    [
      'a token GitHub forbids',
      { user: answered(403, { message: 'Forbidden' }) },
      ['fail github-token'],
    ],
    [
      'a repo the token cannot see',
      { repos: [{ repo: 'octo/secret', probe: answered(404, { message: 'Not Found' }) }] },
      ['ok github-token', 'fail github-repo:octo/secret', 'ok github-webhook'],
    ],
    ['no repos', { repos: [] }, ['ok github-token', 'warn github-repos', 'ok github-webhook']],
    [
      'a short webhook secret',
      webhook({ secretLength: 6 }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
    [
      'an unsigned webhook',
      webhook({ state: 'unsigned' }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
    [
      'no webhook, poller on',
      webhook({ state: 'off', poll: true }),
      ['ok github-token', 'ok github-repo:octo/repo', 'ok github-webhook'],
    ],
    [
      'no webhook, no poller',
      webhook({ state: 'off' }),
      ['ok github-token', 'ok github-repo:octo/repo', 'warn github-webhook'],
    ],
  ])('%s', (_, change, expected) => {
    expect(statusOf(checkGithub({ ...githubBase, ...change }))).toEqual(expected);
  });
});

describe('the report', () => {
  const checks: DoctorCheck[] = [
    { id: 'node', status: 'ok', message: 'Node 20.19.0', remedy: '' },
    { id: 'tmux', status: 'warn', message: 'tmux 3.3a', remedy: 'upgrade' },
    { id: 'harness:codex', status: 'fail', message: 'codex is\nmissing', remedy: 'install it' },
  ];

  it('prints `status  id  message — remedy`, one line per check', () => {
    expect(formatDoctorLines(checks).split('\n')).toEqual([
      'ok  node  Node 20.19.0',
      'warn  tmux  tmux 3.3a — upgrade',
      'fail  harness:codex  codex is missing — install it',
    ]);
  });

  it('is ok unless a check fails', () => {
    expect(doctorReport(checks).ok).toBe(false);
    expect(doctorReport(checks.slice(0, 2)).ok).toBe(true);
  });
});
