import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, tmuxSessions, type ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { eventsOf } from './support/serve-log.js';
import { createAnnounced, slackChannel, startSlackServe } from './support/slack-serve.js';

interface Viewed {
  readonly name: string;
  readonly status: string;
  readonly exitStatus?: number;
  readonly tmux: string;
}

/**
 * tmux 3.3 crashes its whole server when a paste targets a dead pane, and the-loop sets
 * `remain-on-exit`: one message to an exited session must never take every other session down.
 */
describe('a session whose harness has exited', () => {
  let fixture: ServeFixture | undefined;
  let slack: FakeSlack | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
    fixture = undefined;
    slack = undefined;
  });

  /** One tmux format of the session's pane, '' when tmux cannot show it. */
  const paneShows = async (serve: ServeFixture, target: string, format: string) => {
    const shown = await execa(
      'tmux',
      ['-L', serve.socket, 'display-message', '-p', '-t', `=${target}:`, format],
      { reject: false },
    );
    return shown.stdout.trim();
  };
  const panePid = async (serve: ServeFixture, target: string): Promise<number> =>
    Number(await paneShows(serve, target, '#{pane_pid}'));
  const paneDead = async (serve: ServeFixture, target: string): Promise<boolean> =>
    (await paneShows(serve, target, '#{pane_dead}')) === '1';

  it('is refused with the remedy, recorded as exited with its status, and the tmux server lives', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    for (const name of ['keep1', 'd1']) {
      const created = await serve.cli(['standing', 'create', name, '--harness', 'shell']);
      expect(created.exitCode, created.stderr).toBe(0);
    }
    const exited = await serve.cli(['standing', 'say', 'd1', 'exit 3']);
    expect(exited.exitCode, exited.stderr).toBe(0);
    await eventually(() => paneDead(serve, 'loop-standing-d1'), {
      what: 'the pane to die',
      timeoutMs: 20_000,
    });

    // Every say is refused. Under load tmux can show the pane dead before it has reaped the
    // process; a refusal made in between can only say "has exited", so ask until tmux knows.
    const refused = await eventually(
      async () => {
        const said = await serve.cli(['standing', 'say', 'd1', 'echo hi']);
        expect(said.exitCode).toBe(1);
        expect(said.stderr).toMatch(/the-loop standing start d1/);
        return /exited \(status 3\)/.test(said.stderr) ? said : undefined;
      },
      { what: 'a refusal that names the exit status', timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(refused.stderr).toMatch(/has exited \(status 3\)/);

    expect(await tmuxSessions(serve)).toEqual(
      expect.arrayContaining(['loop-standing-keep1', 'loop-standing-d1']),
    );
    const kept = await serve.cli(['standing', 'say', 'keep1', 'echo still-here']);
    expect(kept.exitCode, kept.stderr).toBe(0);

    const viewed = JSON.parse(
      (await serve.cli(['standing', 'get', 'd1', '--json'])).stdout,
    ) as Viewed;
    expect(viewed).toMatchObject({ status: 'exited', exitStatus: 3, tmux: 'dead' });
    const events = await eventually(
      async () => {
        const all = await eventsOf(serve);
        return all.some((entry) => entry.event === 'session.exited') ? all : undefined;
      },
      { what: 'session.exited in the event log' },
    );
    expect(events.find((entry) => entry.event === 'session.exited')).toMatchObject({
      ref: 'standing:d1',
      exitStatus: 3,
    });

    const restarted = await serve.cli(['standing', 'start', 'd1']);
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    const again = await serve.cli(['standing', 'say', 'd1', 'echo back']);
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it('notices an exit by itself, without a say, and says so in the listing', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    const created = await serve.cli(['standing', 'create', 'self', '--harness', 'shell']);
    expect(created.exitCode, created.stderr).toBe(0);
    // The harness ends without the-loop typing anything: the pane's own process exits.
    process.kill(await panePid(serve, 'loop-standing-self'), 'SIGKILL');
    const listed = await eventually(
      async () => {
        const all = JSON.parse(
          (await serve.cli(['standing', 'list', '--json'])).stdout,
        ) as Viewed[];
        const self = all.find((session) => session.name === 'self');
        return self?.status === 'exited' ? self : undefined;
      },
      { what: 'the listing to show the exit' },
    );
    expect(listed.tmux).toBe('dead');
    const refused = await serve.cli(['standing', 'say', 'self', 'echo hi']);
    expect(refused.exitCode, refused.stdout).toBe(1);
    expect(refused.stderr).toMatch(/has exited/);
    expect(await tmuxSessions(serve)).toContain('loop-standing-self');
  });

  it('says so in its Slack thread, with the remedy', async () => {
    slack = await startFakeSlack();
    fixture = await startSlackServe(slack);
    const serve = fixture;
    const threadTs = await createAnnounced(serve, slack, 'agent1');
    process.kill(await panePid(serve, 'loop-standing-agent1'), 'SIGKILL');
    const told = await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['channel'] === slackChannel &&
        call.args['thread_ts'] === threadTs &&
        /has exited/.test(String(call.args['text'])),
      15_000,
    );
    expect(String(told.args['text'])).toMatch(/the-loop standing start agent1/);
  });

  it('never races say against restart and delete: the server survives a storm of both', async () => {
    fixture = await createServeFixture();
    const serve = fixture;
    await serve.start();
    for (const name of ['keep2', 'storm']) {
      const created = await serve.cli(['standing', 'create', name, '--harness', 'shell']);
      expect(created.exitCode, created.stderr).toBe(0);
    }
    const says = Array.from({ length: 12 }, (_, index) =>
      serve.cli(['standing', 'say', 'storm', index % 4 === 0 ? 'exit' : `echo ${index}`]),
    );
    const restarts = [
      serve.cli(['standing', 'restart', 'storm']),
      serve.cli(['standing', 'restart', 'storm']),
    ];
    await Promise.all([...says, ...restarts]);
    const deleted = serve.cli(['standing', 'delete', 'storm']);
    const late = Array.from({ length: 4 }, () =>
      serve.cli(['standing', 'say', 'storm', 'echo late']),
    );
    await Promise.all([deleted, ...late]);
    expect(await tmuxSessions(serve)).toContain('loop-standing-keep2');
    const kept = await serve.cli(['standing', 'say', 'keep2', 'echo alive']);
    expect(kept.exitCode, kept.stderr).toBe(0);
  });
});
