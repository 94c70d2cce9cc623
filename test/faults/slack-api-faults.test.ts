import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import {
  startFakeSlack,
  type FakeSlack,
  type WebApiCall,
} from '../fakes/fake-slack/start-fake-slack.js';
import { agentRecords } from './support/agent-records.js';
import { eventsOf, logged } from './support/serve-log.js';
import {
  createAnnounced,
  sendReply,
  slackChannel,
  slackOperator,
  startSlackServe,
} from './support/slack-serve.js';

const succeeded = (call: WebApiCall) => call.failedWith === undefined && call.response?.['ok'];

describe('Slack answering 429, 500 and ok:false, or not answering at all', () => {
  let slack: FakeSlack | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  it('retries transient failures until replies and reactions arrive, reports permanent ones, and keeps serving', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    const threadTs = await createAnnounced(serve, fake, 'flaky');
    const inThread = (call: WebApiCall) => call.args['thread_ts'] === threadTs;
    // The agent answers its boot prompt too; let that answer go by before planning failures.
    await eventually(async () =>
      (await eventsOf(serve)).some((entry) => entry.event === 'agent.posted'),
    );

    // Transient: a rate limit and ok:false internal_error on reactions, a 500 and internal_error
    // on the agent's answer. Each is retried and everything arrives.
    fake.failNext('reactions.add', { status: 429, retryAfterSeconds: 1 });
    fake.failNext('reactions.add', { okFalse: 'internal_error' });
    fake.failNext('chat.postMessage', { status: 500 });
    fake.failNext('chat.postMessage', { okFalse: 'internal_error' });
    await sendReply(fake, threadTs, 'first question');
    const answer = await fake.waitForCall(
      'chat.postMessage',
      (call) =>
        inThread(call) && succeeded(call) === true && String(call.args['text']).includes('@dana'),
      20_000,
    );
    expect(answer.args['channel']).toBe(slackChannel);
    await fake.waitForCall(
      'reactions.add',
      (call) => call.args['name'] === 'white_check_mark' && succeeded(call) === true,
      20_000,
    );
    await fake.waitForCall(
      'reactions.add',
      (call) => call.args['name'] === 'eyes' && succeeded(call) === true,
      20_000,
    );
    expect(fake.callsTo('reactions.add').filter((call) => call.failedWith)).toHaveLength(2);
    expect(fake.callsTo('chat.postMessage').filter((call) => call.failedWith)).toHaveLength(2);
    const retries = logged(serve, 'slack.retry');
    expect(retries.map((entry) => entry['call']).sort()).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'reactions.add',
      'reactions.add',
    ]);
    expect(retries.map((entry) => String(entry['reason']))).toEqual(
      expect.arrayContaining(['internal_error', 'slack_webapi_rate_limited_error']),
    );

    // Permanent: channel_not_found is not retried; the message still reaches the agent, and both
    // failures are reported with Slack's reason.
    fake.reset();
    fake.failNext('reactions.add', { okFalse: 'channel_not_found' });
    fake.failNext('chat.postMessage', { okFalse: 'channel_not_found' });
    await sendReply(fake, threadTs, 'second question');
    const posted = await eventually(
      async () =>
        (await eventsOf(serve)).find(
          (entry) =>
            entry.event === 'agent.posted' &&
            entry['ref'] === 'standing:flaky' &&
            Array.isArray(entry['failed']),
        ),
      { timeoutMs: 15_000, what: 'the failed agent reply to be recorded' },
    );
    expect(posted['failed']).toEqual(['slack']);
    expect(posted['postedTo']).toEqual([]);
    const reactionFailed = await eventually(() => logged(serve, 'slack.reaction_failed')[0]);
    const postFailed = await eventually(() => logged(serve, 'agent.post_failed')[0]);
    expect(reactionFailed).toMatchObject({ name: 'eyes' });
    expect(JSON.stringify(reactionFailed)).toContain('channel_not_found');
    expect(postFailed).toMatchObject({ ref: 'standing:flaky', surface: 'slack' });
    expect(JSON.stringify(postFailed)).toContain('channel_not_found');
    expect(
      fake.callsTo('chat.postMessage').filter((call) => inThread(call) && !call.failedWith),
    ).toEqual([]);

    // Still serving: the next reply goes all the way round.
    fake.reset();
    await sendReply(fake, threadTs, 'third question');
    await fake.waitForCall(
      'chat.postMessage',
      (call) => inThread(call) && succeeded(call) === true,
      15_000,
    );
    expect(await agentRecords.bodies(serve)).toEqual([
      'first question',
      'second question',
      'third question',
    ]);
    expect((await serve.cli(['status'])).exitCode).toBe(0);
  }, 60_000);

  it('starts a session while Slack is down and records standing.announce_failed', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    fake.setDown(true);
    await fake.socket.disconnectAll();

    const created = await serve.cli([
      'standing',
      'create',
      'offline',
      '--slack-channel',
      slackChannel,
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const failed = await eventually(
      async () =>
        (await eventsOf(serve)).find((entry) => entry.event === 'standing.announce_failed'),
      { timeoutMs: 20_000, what: 'standing.announce_failed' },
    );
    expect(failed).toMatchObject({ name: 'offline', channel: slackChannel });
    expect(String(failed['reason'])).not.toBe('');
    const listed = JSON.parse((await serve.cli(['standing', 'list', '--json'])).stdout) as Array<{
      name: string;
      status: string;
    }>;
    expect(listed).toEqual([expect.objectContaining({ name: 'offline', status: 'running' })]);
    const said = await serve.cli(['standing', 'say', 'offline', 'working without Slack']);
    expect(said.exitCode, said.stderr).toBe(0);
    expect(await agentRecords.bodies(serve)).toEqual(['working without Slack']);

    // Slack comes back: the next start announces the session, and nothing crashed meanwhile.
    fake.setDown(false);
    const restarted = await serve.cli(['standing', 'restart', 'offline']);
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    await fake.waitForCall(
      'chat.postMessage',
      (call) => call.args['channel'] === slackChannel && succeeded(call) === true,
      15_000,
    );
    await eventually(async () =>
      (await eventsOf(serve)).some((entry) => entry.event === 'standing.announced'),
    );
    expect((await serve.cli(['status'])).exitCode).toBe(0);
  }, 60_000);
});
