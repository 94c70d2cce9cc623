import { stat } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readArgv, readEvents, type EventRecord } from '../fakes/fake-agent-records.js';
import { signSlackRequest } from '../fakes/fake-slack/sign-slack-request.js';
import {
  startFakeSlack,
  type FakeSlack,
  type WebApiCall,
} from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { createServeFixture, fakeAgentHarness, type ServeFixture } from '../helpers/run-serve.js';
import { eventsOf } from '../faults/support/serve-log.js';

const channel = 'C0OPS';
const dana = 'U0DANA';
const eve = 'U0EVE';
type Answer = Extract<EventRecord, { event: 'permission_answer' }>;

/**
 * Permission requests (docs/design.md §14) end to end: the fake agent runs its PermissionRequest hook
 * (`the-loop hook`, from dist/) for a scripted tool call, serve posts the question into the
 * session's thread through the real Bolt app, and a click or a thread reply on the fake Slack
 * decides what the agent's hook prints.
 */
describe('permission requests from Slack', () => {
  let slack: FakeSlack;
  let fixture: ServeFixture;

  const startServe = async (
    options: {
      mode?: 'socket' | 'http';
      port?: number;
      timeoutSeconds?: number;
      knobs?: Record<string, string>;
    } = {},
  ) => {
    const mode = options.mode ?? 'socket';
    fixture = await createServeFixture(
      ({ agentHome }) => ({
        ...(options.knobs ? { harnesses: fakeAgentHarness(agentHome, options.knobs) } : {}),
        slack: {
          enabled: true,
          mode,
          channel,
          authorizedUsers: [dana, eve],
          approvers: [dana],
        },
        http: { host: '127.0.0.1', port: options.port ?? 0 },
        permissions: { timeoutSeconds: options.timeoutSeconds ?? 120 },
      }),
      {
        env: {
          SLACK_BOT_TOKEN: slack.identity.botToken,
          SLACK_APP_TOKEN: slack.identity.appToken,
          SLACK_SIGNING_SECRET: 'shh-signing-secret',
          SLACK_API_URL: slack.apiUrl,
        },
      },
    );
    await fixture.start();
    if (mode === 'socket') await slack.socket.connected(15_000);
  };

  const createAnnounced = async (name: string): Promise<string> => {
    const created = await fixture.cli(['standing', 'create', name, '--slack-channel', channel]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['channel'] === channel &&
        call.args['thread_ts'] === undefined &&
        String(call.args['text']).includes(`\`${name}\``),
      15_000,
    );
    return String(announcement.response?.['ts']);
  };

  const reply = (text: string, threadTs: string, user = dana) =>
    slack.socket.send(
      slack.eventsApiEnvelope(slack.messageEvent({ channel, user, text, threadTs })),
    );

  const say = async (name: string, text: string) => {
    const said = await fixture.cli(['standing', 'say', name, '-'], { input: text });
    expect(said.exitCode, said.stderr).toBe(0);
  };

  const blocksOf = (call: WebApiCall): Record<string, unknown>[] => {
    const blocks = call.args['blocks'];
    return (typeof blocks === 'string' ? JSON.parse(blocks) : blocks) as Record<string, unknown>[];
  };
  const buttonsOf = (call: WebApiCall) =>
    blocksOf(call)
      .filter((block) => block['type'] === 'actions')
      .flatMap((block) => block['elements'] as { action_id: string; value: string }[]);

  /** The request messages posted in the thread, oldest first, once `count` are there. */
  const requestMessages = async (threadTs: string, count = 1): Promise<WebApiCall[]> =>
    eventually(
      async () => {
        const found = slack
          .callsTo('chat.postMessage')
          .filter(
            (call) =>
              call.args['thread_ts'] === threadTs &&
              String(call.args['text']).startsWith('🔐 Permission request'),
          );
        return found.length >= count ? found : undefined;
      },
      { timeoutMs: 20_000, what: `${count} permission message(s)` },
    );

  const idOf = (call: WebApiCall): string => buttonsOf(call)[0]?.value ?? '';

  const click = (call: WebApiCall, actionId: string, user = dana) =>
    slack.socket.send(
      slack.blockActionsEnvelope({
        user,
        channel,
        messageTs: String(call.response?.['ts']),
        threadTs: String(call.args['thread_ts']),
        actionId,
        value: idOf(call),
      }),
    );

  /** What the agent processes of session `name` recorded (one serve may run several sessions). */
  const agentEvents = async (name: string): Promise<EventRecord[]> => {
    const pids = new Set(
      (await readArgv(fixture.agentHome))
        .filter((launch) => launch.env.THE_LOOP_SESSION === `standing:${name}`)
        .map((launch) => launch.pid),
    );
    return (await readEvents(fixture.agentHome)).filter((event) => pids.has(event.pid));
  };

  /** The answers session `name`'s agent got from its PermissionRequest hook. */
  const answers = async (name: string, count = 1): Promise<Answer[]> =>
    eventually(
      async () => {
        const found = (await agentEvents(name)).filter(
          (event): event is Answer => event.event === 'permission_answer',
        );
        return found.length >= count ? found : undefined;
      },
      { timeoutMs: 20_000, what: `${count} permission answer(s) in the fake agent` },
    );

  const updateOf = (call: WebApiCall, pattern: RegExp) =>
    slack.waitForCall(
      'chat.update',
      (update) =>
        update.args['ts'] === call.response?.['ts'] && pattern.test(String(update.args['text'])),
      20_000,
    );

  /** The open requests of session `name`. */
  const openRequests = async (
    name: string,
  ): Promise<{ id: string; ref: string; tool: string; canAlways: boolean }[]> => {
    const listed = await fixture.cli(['permissions', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    return (
      JSON.parse(listed.stdout) as { id: string; ref: string; tool: string; canAlways: boolean }[]
    ).filter((request) => request.ref === `standing:${name}`);
  };

  /**
   * One fake Slack and one serve with the default config, shared by the tests that need nothing
   * else: each works in a session and thread of its own and looks only at those, and the fake's
   * call log is cleared before each. A serve start-up costs seconds; these tests need one.
   */
  let shared: { slack: FakeSlack; fixture: ServeFixture } | undefined;
  const useSharedServe = async () => {
    if (!shared) {
      slack = await startFakeSlack({ users: { [dana]: { name: 'dana' }, [eve]: { name: 'eve' } } });
      await startServe();
      shared = { slack, fixture };
    }
    ({ slack, fixture } = shared);
    slack.reset();
  };

  afterEach(async () => {
    if (fixture !== shared?.fixture) await fixture?.dispose();
    if (slack !== shared?.slack) await slack?.stop();
  });

  afterAll(async () => {
    await shared?.fixture.dispose();
    await shared?.slack.stop();
  });

  it('allow: the button answers the hook, and the message loses its buttons and says who', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('perm');
    await reply('please test\nFAKE:tool Bash npm test', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    expect(buttonsOf(message).map((button) => button.action_id)).toEqual([
      'permission_allow',
      'permission_deny',
    ]);
    expect(JSON.stringify(blocksOf(message))).toContain('$ npm test');
    expect(idOf(message)).toMatch(/^p-[a-z2-7]{10}$/);
    expect(await openRequests('perm')).toEqual([
      expect.objectContaining({ id: idOf(message), tool: 'Bash', canAlways: false }),
    ]);

    const ack = await click(message, 'permission_allow');
    expect(ack).toBeDefined();
    expect((await answers('perm'))[0]).toMatchObject({ behavior: 'allow', arg: 'npm test' });
    const update = await updateOf(message, /allowed by @dana from Slack/);
    expect(buttonsOf(update)).toEqual([]);
    expect(await openRequests('perm')).toEqual([]);
    // The agent's Stop hook reports what ran.
    await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs && /ran Bash npm test/.test(String(call.args['text'])),
      15_000,
    );
  });

  it('allow always: offered only with suggestions, which go back as updatedPermissions', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('always');
    await reply('go\nFAKE:suggest\nFAKE:tool Bash npm test', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    expect(buttonsOf(message).map((button) => button.action_id)).toEqual([
      'permission_allow',
      'permission_allow_always',
      'permission_deny',
    ]);
    expect(JSON.stringify(blocksOf(message))).toContain('allow Bash(npm *) from now on');
    await click(message, 'permission_allow_always');
    const [answer] = await answers('always');
    expect(answer).toMatchObject({
      behavior: 'allow',
      updatedPermissions: [
        {
          type: 'addRules',
          rules: [{ toolName: 'Bash', ruleContent: 'npm *' }],
          behavior: 'allow',
          destination: 'localSettings',
        },
      ],
    });
    await updateOf(message, /allowed always by @dana/);
  });

  it('deny with a reason: `!deny <reason>` in the thread, and Claude reads the reason', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('deny');
    await reply('clean up\nFAKE:tool Bash rm -rf build', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    await reply('!deny use `make clean` &amp; keep the cache', threadTs);
    const [answer] = await answers('deny');
    expect(answer).toMatchObject({
      behavior: 'deny',
      message: 'Denied by @dana from Slack: use `make clean` & keep the cache',
    });
    const update = await updateOf(message, /denied by @dana from Slack/);
    expect(String(update.args['text'])).toContain('&amp; keep the cache');
    expect(buttonsOf(update)).toEqual([]);
  });

  it('a non-approver gets an ephemeral refusal and the request stays open; a late click hears who decided', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('guard');
    await reply('deploy\nFAKE:tool Bash ./deploy.sh', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    await click(message, 'permission_allow', eve);
    const refusal = await slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.args['user'] === eve,
      15_000,
    );
    expect(String(refusal.args['text'])).toContain('slack.approvers');
    await reply('!allow', threadTs, eve);
    await slack.waitForCall(
      'chat.postEphemeral',
      (call) => call.args['user'] === eve && call !== refusal,
      15_000,
    );
    expect(await openRequests('guard')).toHaveLength(1);
    await click(message, 'permission_deny');
    expect((await answers('guard'))[0]).toMatchObject({
      behavior: 'deny',
      message: 'Denied by @dana from Slack.',
    });
    await updateOf(message, /denied by @dana/);
    await click(message, 'permission_allow');
    const late = await slack.waitForCall(
      'chat.postEphemeral',
      (call) =>
        call.args['user'] === dana && /already denied by @dana/.test(String(call.args['text'])),
      15_000,
    );
    expect(late).toBeDefined();
    expect((await answers('guard')).length).toBe(1);
  });

  it('timeout: no decision in time leaves the terminal dialog and the message says so', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe({ timeoutSeconds: 1 });
    const threadTs = await createAnnounced('slow');
    await reply('wait\nFAKE:tool Bash make', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    expect((await answers('slow'))[0]).toMatchObject({ behavior: 'none' });
    await updateOf(message, /expired — answer in the terminal/);
  });

  it('answered in the terminal: a message meanwhile waits, the dialog leaving the screen ends the request', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('term');
    // A long turn: the Stop that would also end the request comes a minute later.
    await reply('check\nFAKE:turn-ms 60000\nFAKE:tool Bash make', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');

    // Typed now, the message would answer the dialog (its Enter picks "Yes"): it is held.
    await reply('and then this', threadTs);
    await eventually(
      async () =>
        (await eventsOf(fixture)).some(
          (entry) =>
            entry.event === 'delivery.held' &&
            entry['ref'] === 'standing:term' &&
            entry['reason'] === 'permission',
        ),
      { timeoutMs: 15_000, what: 'the reply held while the request is open' },
    );
    expect((await agentEvents('term')).some((event) => event.event === 'dialog_key')).toBe(false);

    // Someone attached to the session answers the dialog; Claude Code leaves the hook running.
    await execa('tmux', ['-L', fixture.socket, 'send-keys', '-t', '=loop-standing-term:', '1']);
    expect((await answers('term'))[0]).toMatchObject({ behavior: 'terminal', key: '1' });
    const update = await updateOf(message, /answered in the terminal/);
    expect(buttonsOf(update)).toEqual([]);
    expect(await openRequests('term')).toEqual([]);
    // The held reply goes in once the dialog is gone (the turn still runs: Claude queues it).
    await eventually(
      async () =>
        (await eventsOf(fixture)).some(
          (entry) =>
            entry['ref'] === 'standing:term' &&
            (entry.event === 'delivery.queued' || entry.event === 'delivery.delivered'),
        ),
      { timeoutMs: 15_000, what: 'the held reply typed after the dialog' },
    );
  });

  it('two concurrent requests: `!allow` needs the id, each is answered on its own', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('twins');
    await reply('both\nFAKE:parallel\nFAKE:tool Bash make a\nFAKE:tool Bash make b', threadTs);
    const messages = await requestMessages(threadTs, 2);
    expect(await openRequests('twins')).toHaveLength(2);
    await reply('!allow', threadTs);
    await slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs &&
        /2 permission requests are open/.test(String(call.args['text'])),
      15_000,
    );
    const byArg = new Map(
      messages.map((call) => [JSON.stringify(blocksOf(call)).includes('make a') ? 'a' : 'b', call]),
    );
    const first = byArg.get('a');
    const second = byArg.get('b');
    if (!first || !second) throw new Error('expected one message per call');
    await reply(`!allow ${idOf(first)}`, threadTs);
    await click(second, 'permission_deny');
    const found = await answers('twins', 2);
    expect(Object.fromEntries(found.map((answer) => [answer.arg, answer.behavior]))).toEqual({
      'make a': 'allow',
      'make b': 'deny',
    });
  });

  it('restart of serve while a request is open: the hook gives no decision and the message says so', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe();
    const threadTs = await createAnnounced('bounce');
    await reply('build\nFAKE:tool Bash make all', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    await fixture.kill('SIGTERM');
    expect((await answers('bounce'))[0]).toMatchObject({ behavior: 'none' });
    await updateOf(message, /the-loop restarted — answer in the terminal/);
    await fixture.start();
    expect(await openRequests('bounce')).toEqual([]);
  });

  it('serve killed (SIGKILL) while a request is open: the restarted serve says so in the message', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe();
    const threadTs = await createAnnounced('crash');
    await reply('build\nFAKE:tool Bash make all', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    // Killed once serve has noted where the message is (a crash before that leaves it as it is).
    const noted = path.join(fixture.stateRoot, 'permissions', 'slack', `${idOf(message)}.json`);
    await eventually(async () => (await stat(noted).catch(() => undefined)) !== undefined, {
      timeoutMs: 10_000,
      what: 'the message noted on disk',
    });
    await fixture.kill('SIGKILL');
    // The hook's connection died with serve: no decision, Claude Code keeps its dialog.
    expect((await answers('crash'))[0]).toMatchObject({ behavior: 'none' });
    await fixture.start();
    await updateOf(message, /the-loop restarted — answer in the terminal/);
    await click(message, 'permission_allow');
    await slack.waitForCall(
      'chat.postEphemeral',
      (call) =>
        call.args['user'] === dana && /no open permission request/.test(String(call.args['text'])),
      15_000,
    );
  });

  it('a session stopped while a request is open: the message says the session stopped', async () => {
    await useSharedServe();
    const threadTs = await createAnnounced('halt');
    await reply('build\nFAKE:tool Bash make all', threadTs);
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    const stopped = await fixture.cli(['standing', 'stop', 'halt']);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    await updateOf(message, /ended: the session stopped/);
    expect(await openRequests('halt')).toEqual([]);
  });

  it('HTTP mode: a forged click is refused with 401, a signed one decides', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    const port = await freePort();
    await startServe({ mode: 'http', port });
    const threadTs = await createAnnounced('signed');
    await say('signed', 'ship it\nFAKE:tool Bash ./ship.sh');
    const [message] = await requestMessages(threadTs);
    if (!message) throw new Error('no permission message');
    const body = slack.blockActionsHttpBody({
      user: dana,
      channel,
      messageTs: String(message.response?.['ts']),
      threadTs,
      actionId: 'permission_allow',
      value: idOf(message),
    });
    const post = (secret: string) =>
      fetch(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        body,
        headers: signSlackRequest(secret, body) as unknown as Record<string, string>,
      });
    expect((await post('forged-secret')).status).toBe(401);
    expect(await openRequests('signed')).toHaveLength(1);
    expect((await post('shh-signing-secret')).status).toBe(200);
    expect((await answers('signed'))[0]).toMatchObject({ behavior: 'allow', arg: './ship.sh' });
    await updateOf(message, /allowed by @dana/);
  });
});
