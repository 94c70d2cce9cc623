import { chmod, mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { claudeHooksVersion } from '../../../src/harness/claude-settings.js';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createControlServer } from '../../../src/api/create-control-server.js';
import { main } from '../../../src/cli/main.js';
import { readVersion } from '../../../src/cli/cli-io.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { DoctorReport } from '../../../src/doctor/doctor-check.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { buildSlackManifest } from '../../../src/slack/build-slack-manifest.js';
import { startFakeGithub, type FakeGithub } from '../../fakes/fake-github/start-fake-github.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { fakeIo } from '../../unit/cli/fake-io.js';

let dir: TempDir;
let configFile: string;
let slack: FakeSlack;
let slackNoScopes: FakeSlack;
let github: FakeGithub;
let manifestScopes: readonly string[];

const baseConfig = (extra = '') =>
  [
    `state: { root: ${JSON.stringify(path.join(dir.path, 'state'))} }`,
    'defaults: { harness: shell, cwd: . }',
    'github:',
    '  repos:',
    '    - { repo: octo/repo, path: . }',
    extra,
  ].join('\n');

beforeAll(async () => {
  // The scopes the manifest asks for, from the project's own builder (never restated here).
  const config = await loadConfig('/dev/null');
  manifestScopes = buildSlackManifest(config).oauth_config.scopes.bot;
  slack = await startFakeSlack({ scopes: manifestScopes });
  slackNoScopes = await startFakeSlack({ scopes: manifestScopes.slice(1) });
  github = await startFakeGithub();
  github.addRepo('octo', 'repo');
});

afterAll(async () => {
  await Promise.all([slack.stop(), slackNoScopes.stop(), github.stop()]);
});

beforeEach(async () => {
  dir = await makeTempDir('loop-doctor-');
  configFile = path.join(dir.path, 'config.yaml');
  await writeFile(configFile, baseConfig());
  slack.reset();
  github.reset();
});

afterEach(async () => {
  await dir.remove();
});

function goodEnv(fakeSlack: FakeSlack = slack): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    SLACK_API_URL: fakeSlack.apiUrl,
    SLACK_BOT_TOKEN: fakeSlack.identity.botToken,
    SLACK_APP_TOKEN: fakeSlack.identity.appToken,
    GITHUB_API_URL: github.apiUrl,
    GITHUB_TOKEN: github.token,
    GITHUB_WEBHOOK_SECRET: 'a-long-random-webhook-secret-0123456789',
  };
}

async function doctor(env: NodeJS.ProcessEnv, args: string[] = ['--json']) {
  const fake = fakeIo({ env, cwd: dir.path });
  const code = await main(['doctor', '--config', configFile, ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

async function report(env: NodeJS.ProcessEnv) {
  const result = await doctor(env);
  const parsed = JSON.parse(result.stdout) as DoctorReport;
  const status = (id: string) => parsed.checks.find((check) => check.id === id)?.status;
  const check = (id: string) => parsed.checks.find((each) => each.id === id);
  return { ...result, report: parsed, status, check };
}

describe('the-loop doctor against the fake Slack and the fake GitHub', () => {
  it('good tokens: every Slack and GitHub check is ok, and the exit is 0', async () => {
    const result = await report(goodEnv());
    expect(result.code).toBe(0);
    expect(result.report.ok).toBe(true);
    for (const id of [
      'config',
      'node',
      'harness:shell',
      'state',
      'slack-token',
      'slack-scopes',
      'slack-socket-mode',
      'github-token',
      'github-repo:octo/repo',
      'github-webhook',
    ]) {
      expect([id, result.status(id)]).toEqual([id, 'ok']);
    }
    expect(result.check('slack-token')?.message).toContain('the-loop in Fake Workspace');
    expect(result.check('github-token')?.message).toContain(github.bot.login);
    // No fleet block: one `ok` line saying the instance runs alone.
    expect(result.check('fleet')).toMatchObject({ status: 'ok', message: /runs alone/ });
    expect(slack.callsTo('auth.test')[0]?.token).toBe(slack.identity.botToken);
    expect(slack.callsTo('apps.connections.open')[0]?.token).toBe(slack.identity.appToken);
    expect(github.callsMatching('GET', /^\/repos\/octo\/repo$/)).toHaveLength(1);
    // Doctor changes nothing.
    expect(github.writeCalls()).toEqual([]);
    expect(slack.calls.map((call) => call.method).sort()).toEqual([
      'apps.connections.open',
      'auth.test',
    ]);
  });

  it('prints one `status  id  message — remedy` line per check, and no secret', async () => {
    const result = await doctor(goodEnv(), []);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect(line).toMatch(/^(ok|warn|fail) {2}\S+ {2}\S/);
    expect(lines).toContainEqual(expect.stringMatching(/^ok {2}slack-scopes {2}/));
    const env = goodEnv();
    for (const secret of ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'GITHUB_TOKEN']) {
      expect(result.stdout).not.toContain(env[secret]);
    }
  });

  it('a bad Slack bot token fails slack-token, names Slack’s error, and exits 1', async () => {
    const result = await report({ ...goodEnv(), SLACK_BOT_TOKEN: 'xoxb-wrong' });
    expect(result.code).toBe(1);
    expect(result.status('slack-token')).toBe('fail');
    expect(result.check('slack-token')?.message).toContain('invalid_auth');
    expect(result.status('slack-scopes')).toBeUndefined();
  });

  it('a bad app token fails slack-socket-mode', async () => {
    const result = await report({ ...goodEnv(), SLACK_APP_TOKEN: 'xapp-wrong' });
    expect(result.code).toBe(1);
    expect(result.status('slack-token')).toBe('ok');
    expect(result.status('slack-socket-mode')).toBe('fail');
  });

  it('a bot token without a scope the manifest asks for fails slack-scopes, naming it', async () => {
    const result = await report(goodEnv(slackNoScopes));
    expect(result.code).toBe(1);
    expect(result.status('slack-scopes')).toBe('fail');
    expect(result.check('slack-scopes')?.message).toContain(manifestScopes[0]);
  });

  it('a bad GitHub token fails github-token and skips the repositories', async () => {
    const result = await report({ ...goodEnv(), GITHUB_TOKEN: 'ghp_wrong' });
    expect(result.code).toBe(1);
    expect(result.status('github-token')).toBe('fail');
    expect(result.check('github-token')?.message).toContain('401');
    expect(result.status('github-repo:octo/repo')).toBeUndefined();
    expect(github.callsMatching('GET', /^\/user$/)[0]?.status).toBe(401);
  });

  it('an app installation token (403 on GET /user) still gets its repositories checked', async () => {
    github.failNext(
      { method: 'GET', path: /^\/user$/ },
      { status: 403, message: 'Resource not accessible by integration' },
    );
    const result = await report(goodEnv());
    expect(result.status('github-token')).toBe('warn');
    expect(result.status('github-repo:octo/repo')).toBe('ok');
    expect(result.code).toBe(0);
  });

  it('a repository the token cannot reach fails its own line', async () => {
    await writeFile(configFile, baseConfig().replace('octo/repo', 'octo/hidden'));
    const result = await report(goodEnv());
    expect(result.code).toBe(1);
    expect(result.status('github-repo:octo/hidden')).toBe('fail');
    expect(result.check('github-repo:octo/hidden')?.message).toContain('404');
  });

  it('Slack and GitHub off, serve not running, an unused harness missing: warnings, exit 0', async () => {
    await writeFile(
      configFile,
      baseConfig('harnesses: { ghost: { kind: command, command: no-such-program-xyz } }'),
    );
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.status('slack')).toBe('warn');
    expect(result.status('github')).toBe('warn');
    expect(result.status('control-socket')).toBe('warn');
    expect(result.status('harness:ghost')).toBe('warn');
    expect(result.report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('a harness a standing session uses, missing, fails; so does a session cwd that is gone', async () => {
    await writeFile(
      configFile,
      baseConfig(
        [
          'harnesses: { ghost: { kind: command, command: no-such-program-xyz } }',
          'standing:',
          '  sessions:',
          '    - { name: haunted, harness: ghost, cwd: ./gone }',
        ].join('\n'),
      ),
    );
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.code).toBe(1);
    expect(result.status('harness:ghost')).toBe('fail');
    expect(result.check('harness:ghost')?.message).toContain('standing session haunted');
    expect(result.status('cwd:haunted')).toBe('fail');
  });

  it('a created session (a record in the state root) whose folder is gone fails; doctor changes no file', async () => {
    const standing = path.join(dir.path, 'state', 'standing');
    await mkdir(standing, { recursive: true, mode: 0o700 });
    const record = {
      version: 1,
      name: 'made',
      source: 'created',
      status: 'stopped',
      createdAt: '2026-01-01T00:00:00.000Z',
      definition: {
        name: 'made',
        description: '',
        harness: 'shell',
        args: [],
        cwd: path.join(dir.path, 'removed-folder'),
        autoStart: false,
        slack: false,
      },
    };
    await writeFile(path.join(standing, 'made.json'), JSON.stringify(record), { mode: 0o600 });
    // A temporary file a crashed writer left long ago: serve sweeps these, doctor must not.
    const stale = path.join(standing, '.made.json.1.abc.tmp');
    await writeFile(stale, '{', { mode: 0o600 });
    await utimes(stale, new Date(0), new Date(0));
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.status('cwd:made')).toBe('fail');
    expect(result.check('cwd:made')?.remedy).toContain('the-loop standing delete made');
    expect(await readFile(stale, 'utf8')).toBe('{');
  });

  it('a running session started with older hooks warns, naming it and the restart', async () => {
    const standing = path.join(dir.path, 'state', 'standing');
    await mkdir(standing, { recursive: true, mode: 0o700 });
    const record = (name: string, hooksVersion: string) => ({
      version: 1,
      name,
      source: 'created',
      status: 'running',
      createdAt: '2026-01-01T00:00:00.000Z',
      startedAt: '2026-01-01T00:00:00.000Z',
      tmuxName: `loop-standing-${name}`,
      token: 'a'.repeat(64),
      hooksVersion,
      definition: {
        name,
        description: '',
        harness: 'claude',
        args: [],
        cwd: dir.path,
        autoStart: false,
        slack: false,
      },
    });
    await writeFile(path.join(standing, 'old.json'), JSON.stringify(record('old', 'shim-0')), {
      mode: 0o600,
    });
    await writeFile(
      path.join(standing, 'new.json'),
      JSON.stringify(record('new', claudeHooksVersion())),
      { mode: 0o600 },
    );
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.status('hooks')).toBe('warn');
    expect(result.check('hooks')?.message).toContain('`old`');
    expect(result.check('hooks')?.message).not.toContain('`new`');
    expect(result.check('hooks')?.remedy).toContain('the-loop standing restart old');
  });

  it('no running session with old hooks: the hooks line is ok', async () => {
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.status('hooks')).toBe('ok');
  });

  it('the state root: private passes, a folder or file open to others fails', async () => {
    const root = path.join(dir.path, 'state');
    await mkdir(path.join(root, 'standing'), { recursive: true, mode: 0o700 });
    await chmod(root, 0o700);
    await chmod(path.join(root, 'standing'), 0o700);
    await writeFile(path.join(root, 'events.jsonl'), '', { mode: 0o600 });
    expect((await report({ PATH: process.env['PATH'] ?? '' })).status('state')).toBe('ok');
    await writeFile(path.join(root, 'standing', 'open.json'), '{}');
    await chmod(path.join(root, 'standing', 'open.json'), 0o644);
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.status('state')).toBe('fail');
    expect(result.check('state')?.message).toContain('open.json');
    expect(result.code).toBe(1);
  });

  it('the control socket: answering is ok; a socket nobody answers on warns', async () => {
    const root = path.join(dir.path, 'state');
    await mkdir(root, { recursive: true, mode: 0o700 });
    const socketPath = path.join(root, 'control.sock');
    const version = await readVersion();
    const server = createControlServer({
      socketPath,
      logger: silentLogger(),
      routes: [
        {
          method: 'GET',
          path: '/api/v1/health',
          operationId: 'getHealth',
          auth: 'operator',
          handler: async () => ({ status: 200, body: { ok: true, instance: '', version } }),
        },
      ],
    });
    await server.start();
    try {
      const result = await report({ PATH: process.env['PATH'] ?? '' });
      expect(result.status('control-socket')).toBe('ok');
      expect(result.check('control-socket')?.message).toContain(version);
    } finally {
      await server.stop();
    }

    const mute: Server = createServer((connection) => connection.destroy());
    await new Promise<void>((resolve) => mute.listen(socketPath, resolve));
    try {
      const result = await report({ PATH: process.env['PATH'] ?? '' });
      expect(result.status('control-socket')).toBe('warn');
      expect(result.check('control-socket')?.message).toContain('nothing answers');
    } finally {
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });

  it('without a config: the config line fails and points at init; the machine is still checked', async () => {
    configFile = path.join(dir.path, 'missing.yaml');
    const result = await report({ PATH: process.env['PATH'] ?? '' });
    expect(result.code).toBe(1);
    expect(result.report.checks.map((check) => check.id)).toEqual(['config', 'node', 'tmux']);
    expect(result.check('config')?.remedy).toContain('the-loop init');
  });

  it('tmux missing from PATH fails the tmux line', async () => {
    const result = await report({ PATH: '/nonexistent-bin' });
    expect(result.status('tmux')).toBe('fail');
    expect(result.check('tmux')?.remedy).toContain('install tmux');
  });
});
