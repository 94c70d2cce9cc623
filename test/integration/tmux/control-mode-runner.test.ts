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
    expect(fallbackCalls).toEqual([]);
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
      expect(fallbackCalls).toEqual([]);
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
    await runner.run(['display-message', '-p', 'two\nlines']);
    expect(fallbackCalls.map((args) => args[0])).toEqual(['-V', 'new-session', 'display-message']);
  });

  it('starts the server with the environment it was given', async () => {
    const shown = await runner.run(['show-environment', '-g']);
    expect(shown.stdout).toContain('LOOP_PROBE=given\n');
    expect(shown.stdout).not.toMatch(/^HOME=/m);
  });

  it('reports a call in flight as unknown when the server dies, then starts over', async () => {
    await runner.run(['new-session', '-d', '-s', 'agent', '--', 'sleep', '100']);
    // run-shell holds the client's queue for a second, so this call is in flight at the kill.
    const inFlight = runner.run(['run-shell', 'sleep 1']);
    await server.tmux('kill-server');
    expect(await inFlight).toMatchObject({ exitCode: -1, failedToRun: true });
    // The dying server may still take a connection or two; a new client then starts a new one.
    const after = await eventually(async () => {
      const listed = await runner.run(['list-sessions', '-F', '#{session_name}']);
      return listed.failedToRun ? undefined : listed;
    });
    expect(after).toMatchObject({ exitCode: 0, stdout: `${controlSession}\n` });
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
