import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import {
  startFakeSlack,
  type FakeSlack,
  type WebApiCall,
} from '../fakes/fake-slack/start-fake-slack.js';

const channel = 'C0OPS';
const dana = 'U0DANA';

/** Two scripted tool calls, 3.5 s apart, so the status message gets an edit between them. */
const twoToolTurn = [
  'run the tests',
  // As Slack sends it: `<` as an entity, a broadcast as `<!channel>`.
  'FAKE:run Bash {"command":"npm test &lt;b&gt; <!channel>"}',
  'FAKE:sleep 3500',
  'FAKE:run Read {"file_path":"/srv/app/src/app.ts"}',
].join('\n');

// docs/design.md §15
describe('Slack progress: one status message per turn', { timeout: 90_000 }, () => {
  let slack: FakeSlack;
  let fixture: ServeFixture;

  const startServe = async (progress: 'summary' | 'delete' | 'off') => {
    fixture = await createServeFixture(
      () => ({ slack: { enabled: true, channel, authorizedUsers: [dana], progress } }),
      {
        env: {
          SLACK_BOT_TOKEN: slack.identity.botToken,
          SLACK_APP_TOKEN: slack.identity.appToken,
          SLACK_API_URL: slack.apiUrl,
        },
      },
    );
    await fixture.start();
    await slack.socket.connected(15_000);
  };

  /** Creates a session, lets its boot turn go by, and returns the ts of its thread. */
  const createAnnounced = async (name: string): Promise<string> => {
    const created = await fixture.cli(['standing', 'create', name, '--slack-channel', channel]);
    expect(created.exitCode, created.stderr).toBe(0);
    const announcement = await slack.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === channel && call.args['thread_ts'] === undefined,
      15_000,
    );
    const threadTs = String(announcement.response?.['ts']);
    await answerIn(threadTs, 'echo:');
    return threadTs;
  };

  const answerIn = (threadTs: string, start: string) =>
    slack.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args['thread_ts'] === threadTs &&
        !call.failedWith &&
        String(call.args['text']).startsWith(start),
      30_000,
    );

  const reply = (text: string, threadTs: string) =>
    slack.socket.send(
      slack.eventsApiEnvelope(slack.messageEvent({ channel, user: dana, text, threadTs })),
    );

  const statusPosts = (threadTs: string): WebApiCall[] =>
    slack
      .callsTo('chat.postMessage')
      .filter(
        (call) => call.args['thread_ts'] === threadTs && String(call.args['text']).startsWith('⏳'),
      );

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') {
      console.log(
        JSON.stringify(
          slack.calls.map((c) => [c.method, c.args['text'], c.args['thread_ts'], c.failedWith]),
          null,
          1,
        ),
      );
      console.log(fixture.output().slice(-6000));
    }
    await fixture?.dispose();
    await slack?.stop();
  });

  it('a turn with two tool calls gets one status message, edited in place, then the summary', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe('summary');
    const threadTs = await createAnnounced('busy');
    await reply(twoToolTurn, threadTs);
    await answerIn(threadTs, 'echo: [slack');
    const summary = await slack.waitForCall(
      'chat.update',
      (call) => String(call.args['text']).startsWith('✅ done'),
      20_000,
    );
    const posts = statusPosts(threadTs);
    expect(posts).toHaveLength(1);
    const first = posts[0];
    const statusTs = String(first?.response?.['ts']);
    // The argument is shown, made harmless: no broadcast, no link.
    expect(first?.args['text']).toMatch(
      /^⏳ working · Bash: npm test &lt;b&gt; @\u200bchannel · \d+:\d\d$/,
    );
    expect(summary.args['ts']).toBe(statusTs);
    expect(summary.args['text']).toMatch(/^✅ done · 2 tool calls \(Bash, Read\) · \d+:\d\d$/);
    const updates = slack.callsTo('chat.update');
    expect(updates.every((call) => call.args['ts'] === statusTs)).toBe(true);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.some((call) => /working · (Bash|Read)/.test(String(call.args['text'])))).toBe(
      true,
    );
    // At most one edit every 3 s per message, the post counting as the first.
    const times = [first?.at ?? 0, ...updates.map((call) => call.at)];
    for (let index = 1; index < times.length; index += 1) {
      expect((times[index] ?? 0) - (times[index - 1] ?? 0)).toBeGreaterThanOrEqual(2_900);
    }
    expect(slack.callsTo('chat.delete')).toEqual([]);
  });

  it('a message queued behind a running turn shows the hourglass, then the check mark', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe('summary');
    const threadTs = await createAnnounced('queue');
    await reply(twoToolTurn, threadTs);
    await slack.waitForCall('chat.postMessage', (call) =>
      String(call.args['text']).startsWith('⏳'),
    );
    const second = slack.messageEvent({ channel, user: dana, text: 'next one', threadTs });
    await slack.socket.send(slack.eventsApiEnvelope(second));
    const onSecond = (name: string) => (call: WebApiCall) =>
      call.args['timestamp'] === second.ts && call.args['name'] === name;
    const check = await slack.waitForCall('reactions.add', onSecond('white_check_mark'), 30_000);
    const hourglass = slack.callsTo('reactions.add').find(onSecond('hourglass_flowing_sand'));
    const removed = slack.callsTo('reactions.remove').find(onSecond('hourglass_flowing_sand'));
    expect(hourglass).toBeDefined();
    expect(removed).toBeDefined();
    expect(hourglass?.at ?? Infinity).toBeLessThanOrEqual(removed?.at ?? 0);
    expect(removed?.at ?? Infinity).toBeLessThanOrEqual(check.at);
  });

  it('progress delete removes the status message at the end of the turn', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe('delete');
    const threadTs = await createAnnounced('tidy');
    await reply('tidy up\nFAKE:run Bash {"command":"make clean"}', threadTs);
    await answerIn(threadTs, 'echo: [slack');
    const deleted = await slack.waitForCall('chat.delete', () => true, 20_000);
    expect(deleted.args['ts']).toBe(String(statusPosts(threadTs)[0]?.response?.['ts']));
    expect(deleted.response).toMatchObject({ ok: true });
  });

  it('progress off posts no status message; the answer still comes', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe('off');
    const threadTs = await createAnnounced('quiet');
    await reply(twoToolTurn, threadTs);
    await answerIn(threadTs, 'echo: [slack');
    expect(statusPosts(threadTs)).toEqual([]);
    expect(slack.callsTo('chat.update')).toEqual([]);
  });

  it('a 429 storm on chat.update drops the edits, never the final answer; the summary lands after it', async () => {
    slack = await startFakeSlack({ users: { [dana]: { name: 'dana' } } });
    await startServe('summary');
    const threadTs = await createAnnounced('stormy');
    slack.storm('chat.update', 1);
    await reply(twoToolTurn, threadTs);
    const answer = await answerIn(threadTs, 'echo: [slack');
    expect(answer.response).toMatchObject({ ok: true });
    const refused = slack.callsTo('chat.update').filter((call) => call.failedWith);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    await eventually(() => fixture.output().includes('slack.progress_dropped'), {
      timeoutMs: 10_000,
      what: 'the dropped edit to be logged',
    });
    slack.stopStorm('chat.update');
    const summary = await slack.waitForCall(
      'chat.update',
      (call) => !call.failedWith && String(call.args['text']).startsWith('✅ done'),
      20_000,
    );
    expect(summary.args['ts']).toBe(String(statusPosts(threadTs)[0]?.response?.['ts']));
  });
});
