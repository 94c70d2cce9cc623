import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  diffConfig,
  reloadKind,
  reloadRules,
  reloadedConfig,
} from '../../../src/config/diff-config.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';

const configPath = '/etc/the-loop/config.yaml';
const base = {
  instance: { name: 'laptop', scope: { mode: 'open', workItems: [] } },
  slack: { mode: 'socket', authorizedUsers: ['U0ANA'], channel: 'C0OPS' },
  github: { keyword: 'the-loop', authorizedUsers: ['octocat'] },
  standing: { sessions: [{ name: 'sup', prompt: 'watch' }] },
};
const resolve = (raw: unknown) => resolveConfig(raw, configPath);

interface Row {
  readonly name: string;
  readonly edit: Record<string, unknown>;
  readonly applied: readonly string[];
  readonly needsRestart: readonly string[];
}

const rows: Row[] = [
  { name: 'nothing changed', edit: {}, applied: [], needsRestart: [] },
  {
    name: 'a Slack user authorized',
    edit: { slack: { ...base.slack, authorizedUsers: ['U0ANA', 'U0BOB'] } },
    // approvers default to authorizedUsers, so they change with them.
    applied: ['slack.authorizedUsers', 'slack.approvers'],
    needsRestart: [],
  },
  {
    name: 'Slack mode and command',
    edit: { slack: { ...base.slack, mode: 'http', command: '/loop-b' } },
    applied: [],
    needsRestart: ['slack.mode', 'slack.command'],
  },
  {
    name: 'a declared session added',
    edit: { standing: { sessions: [...base.standing.sessions, { name: 'new' }] } },
    applied: ['standing.sessions'],
    needsRestart: [],
  },
  {
    name: 'scope and name at once',
    edit: { instance: { name: 'desk', scope: { mode: 'locked', workItems: [] } } },
    applied: ['instance.scope.mode'],
    needsRestart: ['instance.name'],
  },
  {
    name: 'keyword, permissions and progress',
    edit: {
      github: { ...base.github, keyword: 'bot', permissions: 'full' },
      permissions: { timeoutSeconds: 60 },
      slack: { ...base.slack, progress: 'off' },
    },
    applied: [
      'slack.progress',
      'github.permissions',
      'github.keyword',
      'permissions.timeoutSeconds',
    ],
    needsRestart: [],
  },
  {
    name: 'a harness argument',
    edit: { harnesses: { claude: { kind: 'claude', command: 'claude', args: ['--verbose'] } } },
    applied: ['harnesses.claude.args'],
    needsRestart: [],
  },
  {
    name: 'restart-only keys',
    edit: {
      state: { root: 'elsewhere' },
      tmux: { socket: 'other' },
      http: { host: '127.0.0.1', port: 4000 },
      api: { listen: '127.0.0.1:8790' },
    },
    applied: [],
    needsRestart: ['state.root', 'tmux.socket', 'http.port', 'api.listen'],
  },
];

describe('diffConfig', () => {
  it.each(rows)('$name', ({ edit, applied, needsRestart }) => {
    const diff = diffConfig(resolve(base), resolve({ ...base, ...edit }));
    expect([...diff.applied].sort()).toEqual([...applied].sort());
    expect([...diff.needsRestart].sort()).toEqual([...needsRestart].sort());
    expect([...diff.changed].sort()).toEqual([...applied, ...needsRestart].sort());
  });
});

describe('reloadKind', () => {
  it.each([
    ['standing.sessions', 'live'],
    ['harnesses.shell.args', 'live'],
    ['slack.approvers', 'live'],
    ['slack.mode', 'restart'],
    ['slack.files.maxBytes', 'restart'],
    ['instance.name', 'restart'],
    ['instance.scope.workItems', 'live'],
    ['dashboard.listen', 'restart'],
    ['fleet.nats', 'restart'],
    // A prefix matches whole segments only.
    ['standingX', 'restart'],
    ['some.key.nobody.knows', 'restart'],
  ] as const)('%s is %s', (path, kind) => {
    expect(reloadKind(path)).toBe(kind);
  });
});

describe('reloadedConfig', () => {
  it('takes the live keys from the file and keeps every restart key at its running value', () => {
    const running = resolve(base);
    const next = resolve({
      ...base,
      instance: { name: 'desk', scope: { mode: 'locked', workItems: [] } },
      slack: { ...base.slack, mode: 'http', authorizedUsers: ['U0ANA', 'U0EVE'] },
      tmux: { socket: 'other' },
    });
    const result = reloadedConfig(running, next);
    expect(result.instance).toEqual({ name: 'laptop', scope: { mode: 'locked', workItems: [] } });
    expect(result.slack.mode).toBe('socket');
    expect(result.slack.authorizedUsers).toEqual(['U0ANA', 'U0EVE']);
    expect(result.tmux.socket).toBe('');
    // Reloading the same file again still names the restart keys, and changes nothing more.
    const again = diffConfig(result, next);
    expect(again.applied).toEqual([]);
    expect([...again.needsRestart].sort()).toEqual(['instance.name', 'slack.mode', 'tmux.socket']);
  });

  it('removes a restart key the file added', () => {
    const running = resolve(base);
    const next = { ...resolve(base), fleet: { nats: 'nats://x', retention: '24h' } };
    const result = reloadedConfig(running, next) as unknown as Record<string, unknown>;
    expect('fleet' in result).toBe(false);
    expect(diffConfig(running, next).needsRestart).toEqual(['fleet']);
  });
});

describe('the reload table of docs/configuration.md', () => {
  const doc = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Reloading'), doc.indexOf('## Example'));
  const rows = [...section.matchAll(/^\| `([^`]+)` +\| (live|restart) /gm)].map(
    (match) => [match[1] ?? '', match[2] ?? ''] as const,
  );

  it('lists exactly the live keys of reloadRules as live', () => {
    const live = rows.filter(([, kind]) => kind === 'live').map(([key]) => key);
    const rules = Object.entries(reloadRules).filter(([, kind]) => kind === 'live');
    expect(live.sort()).toEqual(rules.map(([key]) => key).sort());
  });

  it('marks restart only keys that need one', () => {
    const restart = rows.filter(([, kind]) => kind === 'restart').map(([key]) => key);
    expect(restart.length).toBeGreaterThan(5);
    for (const key of restart) expect(reloadKind(key), key).toBe('restart');
  });
});
