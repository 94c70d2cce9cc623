import { App } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSocketReceiver } from '../../../src/slack/create-socket-receiver.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { createRecordingSlackLogger } from '../fake-slack/recording-slack-logger.js';

type Body = Record<string, unknown>;

/** A promise and the functions that settle it, for an intake the test lets finish. */
function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** `fired` resolves once `fire` is called. */
function signal() {
  let fire: () => void = () => undefined;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fired, fire };
}

const threadOf = (body: Body): unknown =>
  (body['event'] as Record<string, unknown> | undefined)?.['thread_ts'];

let fake: FakeSlack;
let app: App | undefined;
let log: ReturnType<typeof captureLogger>;
/** What the test's intake saw; a thread reply is held on `recording` until the test settles it. */
let taken: Body[];
let recording: ReturnType<typeof deferred>;
let intakeCalled: ReturnType<typeof signal>;

beforeEach(async () => {
  fake = await startFakeSlack();
  log = captureLogger();
  taken = [];
  recording = deferred();
  intakeCalled = signal();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await fake.socket.disconnected();
  await fake.stop();
});

/** The real SocketModeClient inside the receiver, under a real Bolt App, against the fake Slack. */
async function startApp(listen: (bolt: App) => void = () => undefined): Promise<App> {
  const receiver = createSocketReceiver({
    appToken: fake.identity.appToken,
    slackApiUrl: fake.apiUrl,
    intake: (body) => {
      taken.push(body);
      intakeCalled.fire();
      return threadOf(body) === undefined ? undefined : recording.promise;
    },
    logger: log.logger,
    slackLogger: createRecordingSlackLogger(),
  });
  app = new App({
    token: fake.identity.botToken,
    receiver,
    logger: createRecordingSlackLogger(),
    clientOptions: { slackApiUrl: fake.apiUrl },
  });
  listen(app);
  await app.start();
  await fake.socket.connected();
  return app;
}

const threadReply = () =>
  fake.eventsApiEnvelope(
    fake.messageEvent({
      channel: 'C0OPS',
      user: 'U0DANA',
      text: 'hello agent',
      threadTs: '1700000000.000001',
    }),
  );

describe('createSocketReceiver with the real SocketModeClient against the fake Slack', () => {
  it('hands a thread reply to the intake, not Bolt, and acks only once its write settles', async () => {
    const boltSaw: string[] = [];
    await startApp((bolt) =>
      bolt.event('message', async ({ event }) => {
        boltSaw.push(event.ts);
      }),
    );
    const envelope = threadReply();
    const acked = fake.socket.send(envelope);
    await intakeCalled.fired;

    expect(taken).toHaveLength(1);
    expect(threadOf(taken[0] ?? {})).toBe('1700000000.000001');
    // The write has not settled. A later envelope on the same socket is acked first: had the
    // reply been acked when it arrived, its ack would have come back before this one.
    const later = fake.eventsApiEnvelope(
      fake.appMentionEvent({ channel: 'C0OPS', user: 'U0DANA', text: 'later' }),
    );
    await fake.socket.send(later);
    expect(fake.socket.acks.map((each) => each.envelopeId)).toEqual([later.envelope_id]);

    recording.resolve();
    const ack = await acked;
    expect(ack.envelopeId).toBe(envelope.envelope_id);
    expect(taken).toHaveLength(2);
    expect(boltSaw).toEqual([]);
  });

  it('leaves a thread reply unacknowledged when the intake fails, so Slack sends it again', async () => {
    await startApp();
    const envelope = threadReply();
    const acked = fake.socket.send(envelope, { timeoutMs: 500 });
    await intakeCalled.fired;
    recording.reject(new Error('disk full'));

    await expect(acked).rejects.toThrow(/not acknowledged within 500 ms/);
    expect(fake.socket.acks).toEqual([]);
    expect(log.events()).toContain('slack.event_not_recorded');
  });

  it('gives an event the intake does not record to Bolt, and acks after its listener ran', async () => {
    const listener = deferred();
    const listenerStarted = signal();
    const mentions: string[] = [];
    await startApp((bolt) =>
      bolt.event('app_mention', async ({ event }) => {
        listenerStarted.fire();
        await listener.promise;
        mentions.push(event.text);
      }),
    );
    const mention = fake.appMentionEvent({ channel: 'C0OPS', user: 'U0DANA', text: 'status' });
    const envelope = fake.eventsApiEnvelope(mention);
    const acked = fake.socket.send(envelope);
    await listenerStarted.fired;

    expect(taken).toHaveLength(1);
    expect(fake.socket.acks).toEqual([]);
    listener.resolve();
    const ack = await acked;
    expect(ack.envelopeId).toBe(envelope.envelope_id);
    expect(mentions).toEqual([mention.text]);
  });

  it('leaves slash commands to Bolt, whose handler acks with its answer', async () => {
    await startApp((bolt) =>
      bolt.command('/loop', async ({ ack, command }) => {
        await ack({ text: `ran ${command.text}` });
      }),
    );
    const envelope = fake.slashCommandEnvelope({
      command: '/loop',
      text: 'list',
      user_id: 'U0DANA',
      channel_id: 'C0OPS',
    });
    const ack = await fake.socket.send(envelope);
    expect(ack.payload).toEqual({ text: 'ran list' });
    expect(taken).toEqual([]);
  });
});
