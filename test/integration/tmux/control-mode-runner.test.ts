import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log/create-logger.js';
import {
  createControlModeRunner,
  type ClosableTmuxRunner,
} from '../../../src/tmux/create-control-mode-runner.js';
import type { TmuxRunner } from '../../../src/tmux/tmux-runner.js';
import { eventually } from '../../helpers/eventually.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';

const controlSession = 'loop-control-test';
/** Asked before a client starts: does a session of the control session's name exist, and whose? */
const ownerQuestion = ['list-sessions', '-F', '#{session_name}\t#{@the-loop-owner}'];

describe('the tmux control-mode runner with a tmux older than 3.2', () => {
  it('spawns tmux for every call: an if-shell there answers outside the client’s blocks', async () => {
    const server = createPrivateTmux();
    const calls: string[][] = [];
    const runner = createControlModeRunner({
      socket: server.socket,
      configFile: '/dev/null',
      sessionName: controlSession,
      owner: 'test-owner',
      scratchDir: path.join(tmpdir(), `loop-test-scratch-${server.socket}`),
      fallback: {
        run: (args, input) => {
          calls.push([...args]);
          return args[0] === '-V'
            ? Promise.resolve({
                exitCode: 0,
                stdout: 'tmux 3.1c\n',
                stderr: '',
                failedToRun: false,
              })
            : server.runner.run(args, input);
        },
      },
      logger: silentLogger(),
    });
    try {
      await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
      await runner.run(['load-buffer', '-b', 'b', '-'], 'text');
      await runner.run(['list-sessions', '-F', '#{session_name}']);
      expect(calls.map((args) => args[0])).toEqual([
        'new-session',
        '-V',
        'load-buffer',
        'list-sessions',
      ]);
      expect((await server.tmux('list-sessions', '-F', '#{session_name}')).stdout).toBe('agent');
    } finally {
      await runner.close();
      await server.dispose();
    }
  });
});

describe('the tmux control-mode runner on a private server', () => {
  let server: PrivateTmux;
  let runner: ClosableTmuxRunner;
  let scratchDir: string;
  let fallbackCalls: string[][];

  beforeEach(() => {
    server = createPrivateTmux();
    scratchDir = path.join(tmpdir(), `loop-test-scratch-${server.socket}`);
    fallbackCalls = [];
    const fallback: TmuxRunner = {
      run: (args, input) => {
        fallbackCalls.push([...args]);
        return server.runner.run(args, input);
      },
    };
    runner = createControlModeRunner({
      socket: server.socket,
      configFile: '/dev/null',
      sessionName: controlSession,
      owner: 'test-owner',
      scratchDir,
      fallback,
      logger: silentLogger(),
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LOOP_PROBE: 'given' },
    });
  });

  afterEach(async () => {
    await runner.close();
    await server.dispose();
    await rm(scratchDir, { recursive: true, force: true });
  });

  it('answers like a spawned tmux, argument for argument', async () => {
    const hostile = [
      "it's",
      'a "quoted" word',
      '$HOME ~ {braces} ;semi; #comment \\back',
      'é🚀 tab\there',
      '',
    ];
    for (const text of hostile) {
      const args = ['display-message', '-p', text.replaceAll('#', '##')];
      expect(await runner.run(args)).toEqual(await server.runner.run(args));
    }
    // Only its questions for the version and for whose session the name is went to a spawned tmux.
    expect(fallbackCalls).toEqual([['-V'], ownerQuestion]);
  });

  it('loads a buffer from its input byte for byte, and leaves no file behind', async () => {
    const text = `line one\nit's $HOME ; #{x} \\ "q" é🚀\t\n${'x'.repeat(100_000)}`;
    const saved = path.join(scratchDir, '..', `loop-test-saved-${server.socket}`);
    try {
      const result = await runner.run(
        ['load-buffer', '-b', 'b1', '-', ';', 'save-buffer', '-b', 'b1', saved],
        text,
      );
      expect(result).toMatchObject({ exitCode: 0, failedToRun: false });
      expect(await readFile(saved, 'utf8')).toBe(text);
      expect(await readdir(scratchDir)).toEqual([]);
      expect(fallbackCalls).toEqual([['-V'], ownerQuestion]);
    } finally {
      await rm(saved, { force: true });
    }
  });

  it('reports a failed command with its error, and goes on answering', async () => {
    const failed = await runner.run(['list-panes', '-t', '=nosuch:']);
    expect(failed).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "can't find session: nosuch\n",
      failedToRun: false,
    });
    expect((await runner.run(['display-message', '-p', 'after'])).stdout).toBe('after\n');
  });

  it('counts what an if-shell runs as part of the same call', async () => {
    const result = await runner.run([
      'if-shell',
      '-F',
      '1',
      'display-message -p inner',
      'display-message -p other',
      ';',
      'display-message',
      '-p',
      'last',
    ]);
    expect(result.stdout).toBe('inner\nlast\n');
  });

  it('gives each of many concurrent calls its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => runner.run(['display-message', '-p', `n${index}`])),
    );
    expect(answers.map((answer) => answer.stdout)).toEqual(
      Array.from({ length: 200 }, (_, index) => `n${index}\n`),
    );
  });

  it('sends what one line cannot carry through a spawned tmux', async () => {
    await runner.run(['-V']);
    await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
    await runner.run(['capture-pane', '-p', '-t', '=agent:']);
    expect(fallbackCalls.map((args) => args[0])).toEqual(['-V', 'new-session', 'capture-pane']);
    fallbackCalls = [];
    await runner.run(['display-message', '-p', 'two\nlines']);
    expect(fallbackCalls.map((args) => args[0])).toEqual(['-V', 'display-message']);
    const listed = await server.tmux('list-sessions', '-F', '#{session_name}');
    // Nothing so far needed the client, so it was never started.
    expect(listed.stdout).toBe('agent');
  });

  it('starts the server with the environment it was given', async () => {
    const shown = await runner.run(['show-environment', '-g']);
    expect(shown.stdout).toContain('LOOP_PROBE=given\n');
    expect(shown.stdout).not.toMatch(/^HOME=/m);
  });

  it('reports a call in flight as unknown when the server dies, then starts over', async () => {
    await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
    await runner.run(['display-message', '-p', 'the client is up']);
    // run-shell holds the client's queue for a second, so this call is in flight at the kill.
    const inFlight = runner.run(['run-shell', 'sleep 1']);
    await server.tmux('kill-server');
    expect(await inFlight).toMatchObject({ exitCode: -1, failedToRun: true });
    // The dying server may still take a connection or two; a new client then starts a new one.
    const after = await eventually(async () => {
      const listed = await runner.run(['list-sessions', '-F', '#{session_name}']);
      return listed.failedToRun ? undefined : listed;
    });
    // Only the control session is there: under its name, or a fresh unique one when the dying
    // server's listing could not say whose the old name was.
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^${controlSession}(-[0-9a-f]{6})?\\n$`));
  });

  it('leaves its session when that is killed, instead of moving into an agent session', async () => {
    await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
    await runner.run(['set-option', '-g', 'detach-on-destroy', 'off']);
    await server.tmux('kill-session', '-t', `=${controlSession}`);
    const clients = await eventually(async () => {
      const listed = await server.tmux('list-clients', '-F', '#{session_name}');
      return listed.stdout === '' ? listed : undefined;
    });
    expect(clients.stdout).toBe('');
    expect((await runner.run(['display-message', '-p', 'back'])).stdout).toBe('back\n');
  });

  it('on close ends its own session only, and later calls spawn tmux', async () => {
    await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
    await runner.close();
    const listed = await server.tmux('list-sessions', '-F', '#{session_name}');
    expect(listed.stdout).toBe('agent');
    fallbackCalls = [];
    await runner.run(['display-message', '-p', 'x']);
    expect(fallbackCalls).toHaveLength(1);
  });
});
