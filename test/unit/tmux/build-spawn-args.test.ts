import { describe, expect, it } from 'vitest';
import { buildSpawnArgs, literalArgument } from '../../../src/tmux/build-spawn-args.js';

describe('literalArgument', () => {
  it.each([
    ['plain', 'plain'],
    ['x;', 'x\\;'],
    ['x\\;', 'x\\\\;'],
    [';', '\\;'],
    ['a;b', 'a;b'],
  ])('%j → %j', (input, output) => {
    expect(literalArgument(input)).toBe(output);
  });
});

describe('buildSpawnArgs', () => {
  const spec = {
    name: 'loop-standing-a',
    cwd: '/w',
    argv: ['claude', '--x'],
    env: { A: '1' },
    owner: 'own-1',
  };
  it('passes env with -e and argv after -- on tmux ≥ 3.2, and tags the session in the same call', () => {
    const args = buildSpawnArgs(spec, true);
    expect(args.slice(0, 4)).toEqual(['new-session', '-d', '-s', 'loop-standing-a']);
    expect(args).toContain('-e');
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 3)).toEqual(['claude', '--x']);
    expect(args.join(' ')).toContain(
      '; set-option -w -t =loop-standing-a: remain-on-exit on ; set-option -t =loop-standing-a: @the-loop-owner own-1',
    );
  });
  it('uses an env prefix on older tmux', () => {
    const args = buildSpawnArgs(spec, false);
    expect(args).not.toContain('-e');
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 6)).toEqual(['env', '--', 'A=1', 'claude', '--x']);
  });
  it('passes PATH through env, since tmux ignores -e PATH', () => {
    const args = buildSpawnArgs({ ...spec, env: { A: '1', PATH: '/loop/bin:/usr/bin' } }, true);
    const flagged = args.flatMap((arg, index) => (arg === '-e' ? [args[index + 1]] : []));
    expect(flagged).toEqual(['A=1']);
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 6)).toEqual([
      'env',
      '--',
      'PATH=/loop/bin:/usr/bin',
      'claude',
      '--x',
    ]);
  });

  it('removes variables with env -u before the command, whatever the server holds', () => {
    const args = buildSpawnArgs(
      { ...spec, env: { A: '1', PATH: '/usr/bin:/loop/bin' }, unsetEnv: ['GITHUB_TOKEN', 'X'] },
      true,
    );
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 10)).toEqual([
      'env',
      '-u',
      'GITHUB_TOKEN',
      '-u',
      'X',
      '--',
      'PATH=/usr/bin:/loop/bin',
      'claude',
      '--x',
    ]);
    expect(() => buildSpawnArgs({ ...spec, unsetEnv: ['A;kill-server'] }, true)).toThrow();
  });

  it('sources an env file through /bin/sh, so no value is in the tmux argv', () => {
    const args = buildSpawnArgs(
      {
        ...spec,
        env: {},
        envFile: '/state/harness/loop-standing-a.env',
        unsetEnv: ['GITHUB_TOKEN'],
      },
      true,
    );
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 11)).toEqual([
      'env',
      '-u',
      'GITHUB_TOKEN',
      '--',
      '/bin/sh',
      '-c',
      '. "$0" && rm -f -- "$0" && exec "$@"',
      '/state/harness/loop-standing-a.env',
      'claude',
      '--x',
    ]);
    expect(args).not.toContain('-e');
  });

  it('wraps a one-word command so tmux does not hand it to a shell', () => {
    const args = buildSpawnArgs({ ...spec, argv: ['bash'] }, true);
    const dash = args.indexOf('--');
    expect(args.slice(dash + 1, dash + 4)).toEqual(['env', '--', 'bash']);
  });
  it('refuses an owner or env name that could change the tmux command', () => {
    expect(() => buildSpawnArgs({ ...spec, owner: 'a ; kill-server' }, true)).toThrow();
    expect(() => buildSpawnArgs({ ...spec, env: { 'A B': 'x' } }, true)).toThrow();
  });
});
