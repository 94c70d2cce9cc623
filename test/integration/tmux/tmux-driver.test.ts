import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createControlModeRunner } from '../../../src/tmux/create-control-mode-runner.js';
import { createTmuxDriver } from '../../../src/tmux/create-tmux-driver.js';
import type { TmuxDriver } from '../../../src/tmux/tmux-driver.js';
import { silentLogger } from '../../../src/log/create-logger.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';
import { eventually } from '../../helpers/eventually.js';
import { isLoopError } from '../../../src/errors.js';

const owner = 'owner-test-1';

const controlSession = 'loop-control-test';

/** The same driver over each way of talking to tmux: a process per command, or one `tmux -C`. */
const runners = [
  { label: 'a tmux process per command', control: false },
  { label: 'one tmux control-mode client', control: true },
];

describe.each(runners)('tmux driver on a private server, through $label', ({ control }) => {
  let server: PrivateTmux;
  let driver: TmuxDriver;
  let signals: Array<{ pid: number; signal: string }>;
  let closeRunner: () => Promise<void>;

  beforeEach(() => {
    server = createPrivateTmux();
    signals = [];
    const controlRunner = control
      ? createControlModeRunner({
          socket: server.socket,
          configFile: '/dev/null',
          sessionName: controlSession,
          owner: 'test-owner',
          scratchDir: path.join(tmpdir(), `loop-test-scratch-${server.socket}`),
          fallback: server.runner,
          logger: silentLogger(),
        })
      : undefined;
    closeRunner = async () => controlRunner?.close();
    driver = createTmuxDriver({
      runner: controlRunner ?? server.runner,
      logger: silentLogger(),
      signal: (pid, signal) => {
        signals.push({ pid, signal });
        process.kill(pid, signal);
      },
    });
  });
  afterEach(async () => {
    await closeRunner();
    await server.dispose();
  });

  /** Sessions other than the one a control-mode client sits in. */
  const agentSessions = (sessions: ReadonlyMap<string, unknown>) =>
    [...sessions.keys()].filter((name) => name !== controlSession);

  const spawnCat = (name: string) =>
    driver.spawn({ name, cwd: '/tmp', argv: ['cat'], env: { LOOP_X: 'y z' }, owner });

  it('reports absent when no server runs, live after spawn, with our owner tag', async () => {
    expect((await driver.probe('sup')).state).toBe('absent');
    await spawnCat('sup');
    const info = await driver.probe('sup');
    expect(info).toMatchObject({ name: 'sup', state: 'live', owner });
    expect(info.panePid).toBeGreaterThan(0);
  });

  it('names the global environment of a running server, and none when no server runs', async () => {
    // A control-mode client starts a server for its own session; a tmux process per call does not.
    if (!control) expect(await driver.globalEnvironmentNames()).toEqual([]);
    await spawnCat('sup');
    await server.run(['set-environment', '-g', 'npm_config_cache', '/c']);
    await server.run(['set-environment', '-g', '-r', 'GONE_VAR']);
    const names = await driver.globalEnvironmentNames();
    expect(names).toContain('npm_config_cache');
    expect(names).toContain('PATH');
    expect(names).not.toContain('GONE_VAR');
  });

  it('the prefix trap: with sup absent and sup-2 live, nothing done to sup touches sup-2', async () => {
    await spawnCat('sup-2');
    expect((await driver.probe('sup')).state).toBe('absent');
    await expect(driver.paste('sup', owner, 'hello')).rejects.toMatchObject({
      code: 'session_not_running',
    });
    await expect(driver.sendKeys('sup', owner, ['Enter'])).rejects.toMatchObject({
      code: 'session_not_running',
    });
    await expect(driver.capture('sup')).rejects.toMatchObject({ code: 'session_not_running' });
    await driver.terminate('sup', owner, { graceMs: 200 });
    await driver.clearDead('sup', owner);
    expect(signals).toEqual([]);
    const sup2 = await driver.probe('sup-2');
    expect(sup2.state).toBe('live');
    expect(await driver.capture('sup-2')).not.toContain('hello');
    const buffers = await server.tmux('list-buffers');
    expect(buffers.stdout).toBe('');
  });

  it('never pastes into, keys into or signals a session without our owner tag', async () => {
    await server.tmux('new-session', '-d', '-s', 'sup', '--', 'cat');
    await expect(driver.paste('sup', owner, 'secret text')).rejects.toMatchObject({
      code: 'foreign_session',
    });
    await expect(driver.sendKeys('sup', owner, ['C-c'])).rejects.toMatchObject({
      code: 'foreign_session',
    });
    await expect(driver.terminate('sup', owner, { graceMs: 200 })).rejects.toMatchObject({
      code: 'foreign_session',
    });
    await expect(driver.clearDead('sup', owner)).rejects.toMatchObject({ code: 'foreign_session' });
    expect(signals).toEqual([]);
    expect((await driver.probe('sup')).state).toBe('live');
    expect(await driver.capture('sup')).not.toContain('secret text');
    expect((await server.tmux('list-buffers')).stdout).toBe('');
  });

  it('a session tagged by another instance is not ours either', async () => {
    await driver.spawn({ name: 'sup', cwd: '/tmp', argv: ['cat'], env: {}, owner: 'someone-else' });
    await expect(driver.paste('sup', owner, 'x')).rejects.toSatisfy(
      (error) => isLoopError(error) && error.code === 'foreign_session',
    );
  });

  it('passes the environment and runs argv without a shell', async () => {
    await driver.spawn({
      name: 'env',
      cwd: '/tmp',
      argv: ['sh', '-c', 'printf "%s|%s\\n" "$LOOP_X" "$0"; exec cat', 'literal $HOME;'],
      env: { LOOP_X: 'spaces and $dollar' },
      owner,
    });
    const screen = await eventually(async () => {
      const text = await driver.capture('env');
      return text.includes('|') ? text : undefined;
    });
    expect(screen).toContain('spaces and $dollar|literal $HOME;');
  });

  it('lists every session in one call, with state and owner', async () => {
    await spawnCat('one');
    await driver.spawn({ name: 'two', cwd: '/tmp', argv: ['sh', '-c', 'exit 3'], env: {}, owner });
    await server.tmux('new-session', '-d', '-s', 'foreign', '--', 'cat');
    // Probed first: when tmux missed the exit (see probe-reaps.test.ts) the probe makes it reap.
    await eventually(async () => (await driver.probe('two')).deadStatus === 3);
    const listing = await eventually(async () => {
      const result = await driver.listSessions();
      return result.ok && result.sessions.get('two')?.state === 'dead' ? result : undefined;
    });
    expect(listing.sessions.get('one')).toMatchObject({ state: 'live', owner });
    expect(listing.sessions.get('two')).toMatchObject({ state: 'dead', owner, deadStatus: 3 });
    expect(listing.sessions.get('foreign')).toMatchObject({ state: 'live', owner: '' });
  });

  it('an empty server lists no sessions rather than failing', async () => {
    const listing = await driver.listSessions();
    expect(listing.ok).toBe(true);
    expect(listing.ok && agentSessions(listing.sessions)).toEqual([]);
  });

  it('pastes through a unique buffer and leaves no buffer behind', async () => {
    await spawnCat('p');
    await driver.paste('p', owner, 'first line\nsecond line');
    await driver.sendKeys('p', owner, ['Enter']);
    await eventually(async () => (await driver.capture('p')).includes('second line'));
    expect((await server.tmux('list-buffers')).stdout).toBe('');
  });

  it('terminates gracefully: SIGTERM to the pane group, then the session is gone', async () => {
    await spawnCat('t');
    const pid = (await driver.probe('t')).panePid;
    await driver.terminate('t', owner, { graceMs: 2_000 });
    expect(signals[0]).toEqual({ pid: -(pid ?? 0), signal: 'SIGTERM' });
    expect((await driver.probe('t')).state).toBe('absent');
  });

  it('escalates for a process that ignores SIGTERM', async () => {
    await driver.spawn({
      name: 'stubborn',
      cwd: '/tmp',
      argv: ['sh', '-c', 'trap "" TERM HUP; echo deaf; while :; do sleep 0.05; done'],
      env: {},
      owner,
    });
    // Signal only once the shell ignores the signals; before that it would just die of SIGTERM.
    await eventually(async () => (await driver.capture('stubborn')).includes('deaf'));
    await driver.terminate('stubborn', owner, { graceMs: 400 });
    expect(signals.map((entry) => entry.signal)).toEqual(['SIGTERM', 'SIGHUP', 'SIGKILL']);
    expect((await driver.probe('stubborn')).state).toBe('absent');
  });

  it('a dead pane stays visible as dead and can be cleared', async () => {
    await driver.spawn({ name: 'd', cwd: '/tmp', argv: ['sh', '-c', 'exit 1'], env: {}, owner });
    await eventually(async () => (await driver.probe('d')).state === 'dead');
    await driver.clearDead('d', owner);
    expect((await driver.probe('d')).state).toBe('absent');
  });

  it('never types into a dead pane (tmux 3.3 would crash its server): refused as exited', async () => {
    await spawnCat('keep');
    await driver.spawn({ name: 'd', cwd: '/tmp', argv: ['sh', '-c', 'exit 4'], env: {}, owner });
    // Dead, and reaped: on a loaded machine tmux may learn the exit status a while after the pane
    // died, and the refusal can only name what tmux knows.
    await eventually(async () => {
      const info = await driver.probe('d');
      return info.state === 'dead' && info.deadStatus === 4;
    });
    for (const act of [
      () => driver.paste('d', owner, 'echo hi'),
      () => driver.sendKeys('d', owner, ['Enter']),
    ]) {
      const failure: unknown = await act().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isLoopError(failure) && failure.code).toBe('session_exited');
      expect(isLoopError(failure) && failure.details['exitStatus']).toBe(4);
    }
    expect((await driver.probe('keep')).state).toBe('live');
    expect((await driver.probe('d')).state).toBe('dead');
  });

  it('refuses a second session with the same name', async () => {
    await spawnCat('dup');
    await expect(spawnCat('dup')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('answers unknown, never absent, when tmux itself cannot run', async () => {
    const broken = createTmuxDriver({
      runner: {
        run: async () => ({ exitCode: -1, stdout: '', stderr: '', failedToRun: true }),
      },
      logger: silentLogger(),
    });
    expect((await broken.probe('x')).state).toBe('unknown');
    expect((await broken.listSessions()).ok).toBe(false);
  });
});

describe('tmux driver on a tmux older than 3.2', () => {
  it('passes the environment through an env prefix instead of -e', async () => {
    const server = createPrivateTmux();
    try {
      const calls: string[][] = [];
      const driver = createTmuxDriver({
        runner: {
          run: (args, input) => {
            calls.push([...args]);
            if (args[0] === '-V') {
              return Promise.resolve({
                exitCode: 0,
                stdout: 'tmux 3.1c\n',
                stderr: '',
                failedToRun: false,
              });
            }
            return server.runner.run(args, input);
          },
        },
        logger: silentLogger(),
      });
      await driver.spawn({
        name: 'old',
        cwd: '/tmp',
        argv: ['sh', '-c', 'echo "v=$THE_LOOP_INSTANCE"; exec cat'],
        env: { THE_LOOP_INSTANCE: 'laptop-b' },
        owner,
      });
      expect(calls.some((args) => args.includes('-e'))).toBe(false);
      await eventually(async () => (await driver.capture('old')).includes('v=laptop-b'));
    } finally {
      await server.dispose();
    }
  });
});
