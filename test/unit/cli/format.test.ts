import { describe, expect, it } from 'vitest';
import {
  formatColumns,
  formatStandingList,
  formatStandingView,
  formatInstance,
  formatStatus,
} from '../../../src/cli/format.js';
import { standingView } from './standing-view-fixture.js';
import type { StatusReport } from '../../../src/api/routes/status-routes.js';

describe('formatColumns', () => {
  it.each<[string, string[][], string]>([
    ['nothing', [], ''],
    ['one row', [['a', 'b']], 'a  b'],
    [
      'columns as wide as their widest cell',
      [
        ['NAME', 'CWD'],
        ['supervisor', '/x'],
      ],
      'NAME        CWD\nsupervisor  /x',
    ],
    [
      'no trailing blanks when the last cell is empty',
      [
        ['a', ''],
        ['bbb', 'c'],
      ],
      'a\nbbb  c',
    ],
    [
      'code points, not UTF-16 units',
      [
        ['é🙂', 'x'],
        ['ab', 'y'],
      ],
      'é🙂  x\nab  y',
    ],
    ['control characters escaped', [['\u001b[31mred', 'x']], '\\u001b[31mred  x'],
  ])('lays out %s', (_, rows, expected) => {
    expect(formatColumns(rows)).toBe(expected);
  });
});

describe('formatStandingList', () => {
  it('shows one row a session under the pinned headers', () => {
    const text = formatStandingList([
      standingView(),
      standingView({
        name: 'helper',
        source: 'created',
        status: 'stopped',
        agentState: null,
        tmux: 'absent',
        autoStart: false,
        harness: 'claude',
        cwd: '/tmp',
      }),
    ]);
    expect(text.split('\n')).toEqual([
      'NAME    SOURCE    STATUS   STATE  TMUX    HARNESS  AUTO  CWD',
      'demo    declared  running  idle   live    shell    yes   /work/repo',
      'helper  created   stopped  -      absent  claude   no    /tmp',
    ]);
  });

  it('says how to make a session when there is none', () => {
    expect(formatStandingList([])).toContain('the-loop standing create NAME');
  });
});

describe('formatStandingView', () => {
  it('shows every field it has and how to attach on the default tmux server', () => {
    const text = formatStandingView(
      standingView({ conversationId: 'c-1', slack: { channel: 'C1', threadTs: '1.2' } }),
      '',
    );
    expect(text).toContain('ref           standing:demo');
    expect(text).toContain('conversation  c-1');
    expect(text).toContain('slack         C1, thread 1.2');
    expect(text).toContain("attach        tmux attach -t '=loop-standing-demo'");
    expect(text).not.toContain('stopped ');
  });

  it('names the private tmux socket, and offers no attach when the pane is gone', () => {
    expect(formatStandingView(standingView(), 'ours')).toContain(
      "tmux -L ours attach -t '=loop-standing-demo'",
    );
    const stopped = formatStandingView(standingView({ status: 'stopped', tmux: 'absent' }), '');
    expect(stopped).not.toContain('attach');
    expect(stopped).toMatch(/^slack +no thread$/m);
  });
});

describe('formatInstance', () => {
  it('shows an unnamed open instance with nothing declared', () => {
    expect(formatInstance({ name: '', scope: { mode: 'open', workItems: [] }, managed: [] })).toBe(
      'instance: (unnamed) · scope open\n\ndeclared work items: none\n\nmanaged work items: none',
    );
  });

  it('lists declared and managed work items with where they came from', () => {
    const text = formatInstance({
      name: 'laptop-b',
      scope: { mode: 'addressed', workItems: ['github:octo/repo#12'] },
      managed: [
        {
          ref: 'github:octo/repo#12',
          sources: ['declared', 'session'],
          url: 'https://github.com/octo/repo/issues/12',
        },
      ],
      warnings: [],
    });
    expect(text).toContain('instance: laptop-b · scope addressed');
    expect(text).toContain('declared work items:\n  github:octo/repo#12');
    expect(text).toContain(
      'managed work items:\n  github:octo/repo#12  declared, session  https://github.com/octo/repo/issues/12',
    );
  });
});

const report = (overrides: Partial<StatusReport> = {}): StatusReport => ({
  ok: true,
  instance: { name: '', scopeMode: 'open', warnings: [] },
  services: [
    { name: 'control', state: 'ok', detail: '/s/control.sock' },
    { name: 'slack', state: 'off', detail: 'set SLACK_BOT_TOKEN' },
  ],
  sessions: [standingView()],
  problems: [],
  ...overrides,
});

describe('formatStatus', () => {
  it('starts with the instance line and ends with ok', () => {
    const lines = formatStatus(report()).split('\n');
    expect(lines[0]).toBe('instance: (unnamed) · scope open');
    expect(lines).toContain('  control  ok   /s/control.sock');
    expect(lines).toContain('  NAME  SOURCE    STATUS   STATE  TMUX  HARNESS  AUTO  CWD');
    expect(lines.at(-1)).toBe('ok');
    expect(lines).not.toContain('problems:');
  });

  it('lists the problems, the warnings and the count when not ok', () => {
    const text = formatStatus(
      report({
        ok: false,
        instance: {
          name: 'laptop-b',
          scopeMode: 'locked',
          warnings: ['instance.scope.mode is wrong'],
        },
        problems: ['auto-start session `demo` is not running', 'tmux: no server'],
      }),
    );
    expect(text).toContain(
      'instance: laptop-b · scope locked\n  warning: instance.scope.mode is wrong',
    );
    expect(text).toContain(
      'problems:\n  - auto-start session `demo` is not running\n  - tmux: no server',
    );
    expect(text.endsWith('not ok (2 problems)')).toBe(true);
  });
});
