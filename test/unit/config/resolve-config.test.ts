import { describe, expect, it } from 'vitest';
import { ConfigError, type ConfigIssueCode } from '../../../src/config/config-error.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import type { Config } from '../../../src/config/types.js';
import { controlCharacters } from './control-characters.js';

const configPath = '/etc/the-loop/config.yaml';

function refusal(raw: unknown, options = {}): ConfigError {
  try {
    resolveConfig(raw, configPath, options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

const sessions = (...list: unknown[]): unknown => ({ standing: { sessions: list } });

interface RefusalRow {
  readonly name: string;
  readonly raw: unknown;
  readonly path: string;
  readonly code: ConfigIssueCode;
}

const refusals: RefusalRow[] = [
  { name: 'unknown top-level key', raw: { slak: {} }, path: 'slak', code: 'unknown_key' },
  {
    name: 'unknown key in a session',
    raw: sessions({ name: 'a', cwdd: '.' }),
    path: 'standing.sessions[0].cwdd',
    code: 'unknown_key',
  },
  {
    name: 'unknown key in a harness',
    raw: { harnesses: { foo: { command: 'x', kindd: 'command' } } },
    path: 'harnesses.foo.kindd',
    code: 'unknown_key',
  },
  {
    name: 'unknown key in a slack thread',
    raw: sessions({ name: 'a', slack: { channel: 'C1', chanel: 'C2' } }),
    path: 'standing.sessions[0].slack.chanel',
    code: 'unknown_key',
  },
  {
    name: 'misspelt key deep down',
    raw: { github: { webhook: { allowunsigned: true } } },
    path: 'github.webhook.allowunsigned',
    code: 'unknown_key',
  },
  { name: 'the file is a list', raw: ['a'], path: '', code: 'wrong_type' },
  { name: 'the file is a string', raw: 'state: x', path: '', code: 'wrong_type' },
  {
    name: 'string for a boolean',
    raw: { standing: { autoStart: 'yes' } },
    path: 'standing.autoStart',
    code: 'wrong_type',
  },
  {
    name: 'string for a number',
    raw: { delivery: { readyTimeoutMs: '5000' } },
    path: 'delivery.readyTimeoutMs',
    code: 'wrong_type',
  },
  {
    name: 'fraction for a whole number',
    raw: { http: { port: 80.5 } },
    path: 'http.port',
    code: 'wrong_type',
  },
  {
    name: 'string for a list',
    raw: { slack: { authorizedUsers: 'U012ABC' } },
    path: 'slack.authorizedUsers',
    code: 'wrong_type',
  },
  { name: 'null for a block', raw: { state: null }, path: 'state', code: 'wrong_type' },
  {
    name: 'list entry of the wrong type',
    raw: sessions({ name: 'a', args: ['ok', 3] }),
    path: 'standing.sessions[0].args[1]',
    code: 'wrong_type',
  },
  {
    name: 'slack: true',
    raw: sessions({ name: 'a', slack: true }),
    path: 'standing.sessions[0].slack',
    code: 'wrong_type',
  },
  {
    name: 'slack as a channel string',
    raw: sessions({ name: 'a', slack: 'C0123' }),
    path: 'standing.sessions[0].slack',
    code: 'wrong_type',
  },
  {
    name: 'unknown harness kind',
    raw: { harnesses: { foo: { kind: 'docker', command: 'x' } } },
    path: 'harnesses.foo.kind',
    code: 'invalid_value',
  },
  {
    name: 'unknown slack mode',
    raw: { slack: { mode: 'rtm' } },
    path: 'slack.mode',
    code: 'invalid_value',
  },
  {
    name: 'slash command without the slash',
    raw: { slack: { command: 'loop' } },
    path: 'slack.command',
    code: 'invalid_value',
  },
  {
    name: 'a person name instead of a Slack user id',
    raw: { slack: { authorizedUsers: ['@dana'] } },
    path: 'slack.authorizedUsers[0]',
    code: 'invalid_value',
  },
  {
    name: 'repo without an owner',
    raw: { github: { repos: [{ repo: 'repo', path: '.' }] } },
    path: 'github.repos[0].repo',
    code: 'invalid_value',
  },
  {
    name: 'port out of range',
    raw: { http: { port: 70000 } },
    path: 'http.port',
    code: 'invalid_value',
  },
  {
    name: 'zero ready timeout',
    raw: { delivery: { readyTimeoutMs: 0 } },
    path: 'delivery.readyTimeoutMs',
    code: 'invalid_value',
  },
  {
    name: 'api.listen without a port',
    raw: { api: { listen: 'localhost' } },
    path: 'api.listen',
    code: 'invalid_value',
  },
  {
    name: 'dashboard.listen on the address of api.listen',
    raw: { api: { listen: '127.0.0.1:8790' }, dashboard: { listen: '127.0.0.1:8790' } },
    path: 'dashboard.listen',
    code: 'invalid_value',
  },
  {
    name: 'dashboard.listen on every interface without allowRemote',
    raw: { dashboard: { listen: '0.0.0.0:8791' } },
    path: 'dashboard.listen',
    code: 'invalid_value',
  },
  {
    name: 'dashboard.listen neither off nor host:port',
    raw: { dashboard: { listen: 'on' } },
    path: 'dashboard.listen',
    code: 'invalid_value',
  },
  {
    name: 'tmux socket as a path',
    raw: { tmux: { socket: '../x' } },
    path: 'tmux.socket',
    code: 'invalid_value',
  },
  {
    name: 'empty state root',
    raw: { state: { root: '' } },
    path: 'state.root',
    code: 'invalid_value',
  },
  {
    name: 'uppercase session name',
    raw: sessions({ name: 'Sup' }),
    path: 'standing.sessions[0].name',
    code: 'invalid_name',
  },
  {
    name: 'session name with a trailing newline',
    raw: sessions({ name: 'abc\n' }),
    path: 'standing.sessions[0].name',
    code: 'invalid_name',
  },
  {
    name: 'session name with a leading hyphen',
    raw: sessions({ name: '-x' }),
    path: 'standing.sessions[0].name',
    code: 'invalid_name',
  },
  {
    name: 'session name of 41 characters',
    raw: sessions({ name: 'a'.repeat(41) }),
    path: 'standing.sessions[0].name',
    code: 'invalid_name',
  },
  {
    name: 'invalid harness name',
    raw: { harnesses: { 'My Harness': { command: 'x' } } },
    path: 'harnesses["My Harness"]',
    code: 'invalid_name',
  },
  {
    name: 'invalid defaults.harness',
    raw: { defaults: { harness: 'Claude' } },
    path: 'defaults.harness',
    code: 'invalid_name',
  },
  {
    name: 'invalid session harness',
    raw: sessions({ name: 'a', harness: 'sh ell' }),
    path: 'standing.sessions[0].harness',
    code: 'invalid_name',
  },
  {
    name: 'session without a name',
    raw: sessions({ cwd: '.' }),
    path: 'standing.sessions[0].name',
    code: 'missing_key',
  },
  {
    name: 'repo without a path',
    raw: { github: { repos: [{ repo: 'octo/repo' }] } },
    path: 'github.repos[0].path',
    code: 'missing_key',
  },
  {
    name: 'new harness without a command',
    raw: { harnesses: { codex: { kind: 'command' } } },
    path: 'harnesses.codex.command',
    code: 'missing_key',
  },
  {
    name: 'duplicate standing name',
    raw: sessions({ name: 'a' }, { name: 'b' }, { name: 'a' }),
    path: 'standing.sessions[2].name',
    code: 'duplicate_name',
  },
  {
    name: 'the same repository twice, in another case',
    raw: {
      github: {
        repos: [
          { repo: 'octo/repo', path: 'a' },
          { repo: 'Octo/Repo', path: 'b' },
        ],
      },
    },
    path: 'github.repos[1].repo',
    code: 'duplicate_name',
  },
  {
    name: 'both prompt and promptFile',
    raw: sessions({ name: 'a', prompt: 'hi', promptFile: 'brief.md' }),
    path: 'standing.sessions[0]',
    code: 'prompt_conflict',
  },
  {
    name: 'session harness not configured',
    raw: sessions({ name: 'a', harness: 'codex' }),
    path: 'standing.sessions[0].harness',
    code: 'harness_unknown',
  },
  {
    name: 'defaults.harness not configured',
    raw: { defaults: { harness: 'codex' } },
    path: 'defaults.harness',
    code: 'harness_unknown',
  },
  {
    name: 'defaults.harness naming an Object.prototype member',
    raw: { defaults: { harness: 'constructor' } },
    path: 'defaults.harness',
    code: 'harness_unknown',
  },
  {
    name: 'readyPattern that is not a regular expression',
    raw: { harnesses: { foo: { command: 'x', readyPattern: '(' } } },
    path: 'harnesses.foo.readyPattern',
    code: 'invalid_value',
  },
  {
    name: '~ without HOME',
    raw: { state: { root: '~/loop' } },
    path: 'state.root',
    code: 'invalid_value',
  },
];

describe('resolveConfig refuses', () => {
  it.each(refusals)('$name → $path ($code)', ({ raw, path, code }) => {
    const error = refusal(raw);
    expect(error.code).toBe('config_invalid');
    expect(error.status).toBe(400);
    expect(error.issues).toContainEqual(expect.objectContaining({ path, code }));
  });

  it('names both positions of a duplicate standing name', () => {
    const error = refusal(sessions({ name: 'a' }, { name: 'b' }, { name: 'a' }));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.message).toContain('`standing.sessions[0]`');
    expect(error.issues[0]?.message).toContain('`standing.sessions[2]`');
  });

  it('names the unknown key and the known ones, suggesting the closest', () => {
    const error = refusal({ standing: { autostart: false } });
    expect(error.issues[0]?.message).toContain('"autostart"');
    expect(error.issues[0]?.message).toContain('did you mean `autoStart`?');
    expect(error.issues[0]?.message).toContain('autoStart, allowedRoots, sessions');
  });

  it('names the configured harnesses when one is unknown', () => {
    const error = refusal({
      harnesses: { codex: { command: 'codex' } },
      defaults: { harness: 'cdx' },
    });
    expect(error.issues[0]?.message).toContain('claude, shell, codex');
  });

  it('reports every problem at once, in one error whose message lists them', () => {
    const error = refusal({
      slak: 1,
      http: { port: 'x' },
      standing: { sessions: [{ name: 'B' }] },
    });
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'http.port',
      'slak',
      'standing.sessions[0].name',
    ]);
    for (const issue of error.issues) expect(error.message).toContain(issue.path);
  });

  it('keeps every hostile character out of messages', () => {
    const error = refusal({
      ['\u001b[2J\u202e']: 1,
      standing: { sessions: [{ name: 'a\u0007' }] },
    });
    expect(controlCharacters(error.message)).toEqual([]);
    expect(error.issues[0]?.path).toBe('["\\u001b[2J\\u202e"]');
  });

  it('refuses an absolute-path contract violation as a programming error', () => {
    expect(() => resolveConfig({}, 'config.yaml')).toThrow(/absolute/);
  });
});

describe('resolveConfig defaults', () => {
  it('an empty config resolves to every default', () => {
    const expected: Config = {
      configPath,
      instance: { name: '', scope: { mode: 'open', workItems: [] } },
      instanceWarnings: [],
      state: { root: '/etc/the-loop/state', eventLog: { maxBytes: 67_108_864 } },
      tmux: { socket: '' },
      harnesses: {
        claude: {
          kind: 'claude',
          command: 'claude',
          args: [],
          agent: true,
          interruptKey: 'Escape',
        },
        shell: {
          kind: 'command',
          command: 'bash',
          args: ['--norc'],
          agent: false,
          interruptKey: 'C-c',
        },
      },
      defaults: { harness: 'claude', cwd: '/etc/the-loop' },
      standing: { autoStart: true, allowedRoots: ['/etc/the-loop'], sessions: [] },
      delivery: {
        readyTimeoutMs: 30000,
        submitDelayMs: 150,
        confirmTimeoutMs: 5000,
        draftWaitMs: 30000,
        unknownScreenMs: 5000,
      },
      slack: {
        enabled: true,
        mode: 'socket',
        channel: '',
        command: '/loop',
        authorizedUsers: [],
        approvers: [],
        progress: 'summary',
        files: { maxBytes: 20971520 },
      },
      github: {
        repos: [],
        authorizedUsers: [],
        approvers: [],
        permissions: 'brief',
        keyword: 'the-loop',
        webhook: { path: '/github/webhook', allowUnsigned: false },
        poll: { enabled: false, intervalSeconds: 30 },
      },
      permissions: { timeoutSeconds: 600, alwaysModes: [] },
      agents: { maxMessagesPerMinute: 20 },
      http: { host: '127.0.0.1', port: 3000 },
      api: { listen: '' },
      dashboard: { listen: '127.0.0.1:8791', allowRemote: false, allowedHosts: [] },
    };
    expect(resolveConfig(null, configPath)).toEqual(expected);
    expect(resolveConfig(undefined, configPath)).toEqual(expected);
    expect(resolveConfig({}, configPath)).toEqual(expected);
  });

  it('lets approvers default to the authorized users of their surface, and an empty list stay empty', () => {
    const inherited = resolveConfig(
      { slack: { authorizedUsers: ['U0DANA'] }, github: { authorizedUsers: ['octocat'] } },
      configPath,
    );
    expect(inherited.slack.approvers).toEqual(['U0DANA']);
    expect(inherited.github.approvers).toEqual(['octocat']);
    const nobody = resolveConfig(
      { slack: { authorizedUsers: ['U0DANA'], approvers: [] }, github: { approvers: [] } },
      configPath,
    );
    expect(nobody.slack.approvers).toEqual([]);
    expect(nobody.github.approvers).toEqual([]);
  });

  it('waits longer before Enter than Claude Code (100 ms) and Codex CLI (120 ms) hold a paste open', () => {
    // An Enter inside that window becomes a newline in the paste; the message then waits for the
    // confirmation timeout and a second Enter.
    const { delivery } = resolveConfig({}, configPath);
    expect(delivery.submitDelayMs).toBeGreaterThan(120);
    expect(delivery.submitDelayMs).toBeLessThan(delivery.confirmTimeoutMs);
  });

  it('fills a session from `defaults` and the session defaults', () => {
    const config = resolveConfig(
      { defaults: { harness: 'shell', cwd: 'work' }, ...(sessions({ name: 'demo' }) as object) },
      configPath,
    );
    expect(config.standing.sessions).toEqual([
      {
        name: 'demo',
        description: '',
        harness: 'shell',
        args: [],
        cwd: '/etc/the-loop/work',
        autoStart: true,
        slack: { channel: '' },
      },
    ]);
  });

  it('reads `slack: false`, `slack: {}` and a channel', () => {
    const config = resolveConfig(
      sessions(
        { name: 'a', slack: false },
        { name: 'b', slack: {} },
        { name: 'c', slack: { channel: 'C1' } },
      ),
      configPath,
    );
    expect(config.standing.sessions.map((session) => session.slack)).toEqual([
      false,
      { channel: '' },
      { channel: 'C1' },
    ]);
  });

  it('keeps a partly given block and defaults the rest of it', () => {
    const config = resolveConfig(
      { delivery: { submitDelayMs: 0 }, github: { poll: { enabled: true } } },
      configPath,
    );
    expect(config.delivery).toEqual({
      readyTimeoutMs: 30000,
      submitDelayMs: 0,
      confirmTimeoutMs: 5000,
      draftWaitMs: 30000,
      unknownScreenMs: 5000,
    });
    expect(config.github.poll).toEqual({ enabled: true, intervalSeconds: 30 });
  });

  it('a session may use a harness defined in the same file', () => {
    const config = resolveConfig(
      {
        harnesses: { codex: { command: 'codex' } },
        ...(sessions({ name: 'a', harness: 'codex' }) as object),
      },
      configPath,
    );
    expect(config.standing.sessions[0]?.harness).toBe('codex');
    expect(config.harnesses['codex']?.kind).toBe('command');
  });
});

describe('resolveConfig paths', () => {
  const raw = {
    state: { root: '../var/state' },
    defaults: { cwd: '.' },
    standing: {
      allowedRoots: ['.', '/srv', '~/src'],
      sessions: [{ name: 'a', cwd: 'a/../b', promptFile: 'briefs/a.md' }, { name: 'b' }],
    },
    github: { repos: [{ repo: 'octo/repo', path: '../repo' }] },
  };
  const config = resolveConfig(raw, configPath, { home: '/home/dana' });

  it('resolves each relative path against the config file directory', () => {
    expect(config.state.root).toBe('/etc/var/state');
    expect(config.defaults.cwd).toBe('/etc/the-loop');
    expect(config.standing.sessions[0]?.cwd).toBe('/etc/the-loop/b');
    expect(config.standing.sessions[0]?.promptFile).toBe('/etc/the-loop/briefs/a.md');
    expect(config.standing.sessions[1]?.cwd).toBe('/etc/the-loop');
    expect(config.github.repos[0]?.path).toBe('/etc/repo');
  });

  it('keeps absolute paths and expands `~/` to the home directory', () => {
    expect(config.standing.allowedRoots).toEqual(['/etc/the-loop', '/srv', '/home/dana/src']);
  });

  it('leaves every other string alone', () => {
    const withPrompt = resolveConfig(sessions({ name: 'a', prompt: './not-a-path' }), configPath);
    expect(withPrompt.standing.sessions[0]?.prompt).toBe('./not-a-path');
    expect(withPrompt.standing.sessions[0]).not.toHaveProperty('promptFile');
  });
});

describe('resolveConfig results', () => {
  it('judges the instance block without refusing the config', () => {
    const config = resolveConfig(
      { instance: { name: 'Laptop', scope: { mode: 'addressed' } } },
      configPath,
    );
    expect(config.instance).toEqual({ name: '', scope: { mode: 'locked', workItems: [] } });
    expect(config.instanceWarnings).toHaveLength(1);
    expect(config.instanceWarnings[0]).toMatch(/^instance\.name: /);
  });

  it('still refuses the rest of the file while the instance block is bad', () => {
    expect(refusal({ instance: 'x', slak: 1 }).issues.map((issue) => issue.path)).toEqual(['slak']);
  });

  it('leaves its input untouched', () => {
    const raw = { standing: { sessions: [{ name: 'a' }] } };
    const copy = structuredClone(raw);
    resolveConfig(raw, configPath);
    expect(raw).toEqual(copy);
  });

  it('returns a frozen config', () => {
    const config = resolveConfig(sessions({ name: 'a' }), configPath);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.standing.sessions[0])).toBe(true);
    expect(Object.isFrozen(config.harnesses['shell']?.args)).toBe(true);
  });

  it('gives `harnesses` no prototype, so names like `constructor` are not found in it', () => {
    const config = resolveConfig({}, configPath);
    expect(config.harnesses['constructor']).toBeUndefined();
    expect(Object.keys(config.harnesses)).toEqual(['claude', 'shell']);
  });

  it('serialises to JSON and back unchanged (the `config check --json` form)', () => {
    const config = resolveConfig(sessions({ name: 'a', slack: false }), configPath);
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
  });
});
