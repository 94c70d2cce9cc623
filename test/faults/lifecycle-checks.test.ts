import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { LoopError } from '../../src/errors.js';
import { silentLogger } from '../../src/log/create-logger.js';
import { createControlModeRunner } from '../../src/tmux/create-control-mode-runner.js';
import { createTmuxDriver } from '../../src/tmux/create-tmux-driver.js';
import { createExecaTmuxRunner } from '../../src/tmux/tmux-runner.js';
import { createPrivateTmux, type PrivateTmux } from '../helpers/private-tmux.js';
import {
  createServeFixture,
  shellHarness,
  tmuxSessions,
  type ServeFixture,
} from '../helpers/run-serve.js';

describe('lifecycle checks at every start and delete', () => {
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('refuses a start or restart whose cwd was turned into a symlink out of allowedRoots', async () => {
    fixture = await createServeFixture(shellHarness);
    const serve = fixture;
    const project = path.join(serve.dir, 'work', 'project');
    const outside = path.join(serve.dir, 'outside');
    await mkdir(project, { recursive: true });
    await mkdir(outside);
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'moved', '--cwd', project]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect((await serve.cli(['standing', 'stop', 'moved'])).exitCode).toBe(0);

    // The folder the session was created in now points out of every allowed root.
    await rm(project, { recursive: true });
    await symlink(outside, project);
    for (const verb of ['start', 'restart']) {
      const refused = await serve.cli(['standing', verb, 'moved']);
      expect(refused.exitCode, `${verb}: ${refused.stdout}`).toBe(1);
      expect(refused.stderr).toMatch(/is outside standing\.allowedRoots/);
      expect(refused.stderr).toContain(outside);
      expect(await tmuxSessions(serve)).not.toContain('loop-standing-moved');
    }
  }, 60_000);

  it('lets exactly one of several concurrent deletes of a session delete it', async () => {
    fixture = await createServeFixture(shellHarness);
    const serve = fixture;
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'twice']);
    expect(created.exitCode, created.stderr).toBe(0);
    const client = createApiClient({
      socketPath: path.join(serve.stateRoot, 'control.sock'),
      timeoutMs: 20_000,
    });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.request('DELETE', '/api/v1/standing-sessions/twice')),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404]);
    expect(answers.find((answer) => answer.status === 200)?.body).toEqual({
      name: 'twice',
      deleted: true,
    });
  }, 60_000);
});

describe('what a tmux failure is called', () => {
  let tmux: PrivateTmux | undefined;

  afterEach(async () => {
    await tmux?.dispose();
    tmux = undefined;
  });

  it('does not say "is installed" when the server crashed under a call', async () => {
    const server = createPrivateTmux();
    tmux = server;
    const owner = 'crash-owner-0123';
    const scratchDir = await mkdtemp(path.join(tmpdir(), 'loop-crash-'));
    const runner = createControlModeRunner({
      socket: server.socket,
      configFile: '/dev/null',
      sessionName: 'loop-control-crash',
      owner,
      scratchDir,
      fallback: server.runner,
      logger: silentLogger(),
    });
    const driver = createTmuxDriver({ runner, logger: silentLogger() });
    try {
      await server.run(['new-session', '-d', '-s', 'loop-standing-crash', 'sh']);
      await server.run(['set-option', '-t', 'loop-standing-crash', '@the-loop-owner', owner]);
      // The control client is up and the session takes keys.
      await driver.sendKeys('loop-standing-crash', owner, ['Enter']);
      const pid = Number((await server.run(['display-message', '-p', '#{pid}'])).trim());

      // Stopped, the server cannot answer the call; killed, it never will: a crash mid-call.
      process.kill(pid, 'SIGSTOP');
      const pending = driver.sendKeys('loop-standing-crash', owner, ['Enter']);
      process.kill(pid, 'SIGKILL');
      const failure = await pending.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(LoopError);
      expect(failure).toMatchObject({ code: 'tmux_unavailable' });
      const { message } = failure as LoopError;
      expect(message).not.toMatch(/installed/);
      expect(message).toMatch(/server is running \(`tmux ls`\)/);
    } finally {
      await runner.close();
      await rm(scratchDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('says "install tmux" when the program is really missing', async () => {
    const driver = createTmuxDriver({
      runner: createExecaTmuxRunner({ socket: 'loop-missing', binary: '/nonexistent/tmux' }),
      logger: silentLogger(),
    });
    await expect(driver.version()).rejects.toMatchObject({
      code: 'tmux_unavailable',
      message: expect.stringMatching(/tmux is not installed or not on PATH; install tmux/),
    });
  });
});
