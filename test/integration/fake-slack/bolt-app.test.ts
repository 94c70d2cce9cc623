import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../fakes/fake-slack/sign-slack-request.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { createRecordingSlackLogger } from './recording-slack-logger.js';

const signingSecret = 'fake-signing-secret';
let fake: FakeSlack;
let app: App | undefined;

/** Answers `/loop` through `respond()` and replies in the thread of every mention. */
function listen(bolt: App): App {
  bolt.command('/loop', async ({ ack, respond, command }) => {
    await ack();
    await respond({
      response_type: 'ephemeral',
      text: `loop ${command.text} for ${command.user_id}`,
    });
  });
  bolt.event('app_mention', async ({ event, say }) => {
    await say({ text: 'on it', thread_ts: event.ts });
  });
  return bolt;
}

beforeEach(async () => {
  fake = await startFakeSlack();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  await fake.socket.disconnected();
  await fake.stop();
});

describe('a real Bolt app in Socket Mode', () => {
  beforeEach(async () => {
    app = listen(
      new App({
        token: fake.identity.botToken,
        appToken: fake.identity.appToken,
        socketMode: true,
        logger: createRecordingSlackLogger(),
        // Bolt hands clientOptions to its SocketModeReceiver too, so both clients reach the fake.
        clientOptions: { slackApiUrl: fake.apiUrl },
      }),
    );
    await app.start();
  });

  it('verifies its bot token and opens Socket Mode with the app token', () => {
    expect(fake.callsTo('auth.test')[0]?.token).toBe(fake.identity.botToken);
    expect(fake.callsTo('apps.connections.open')[0]?.token).toBe(fake.identity.appToken);
    expect(fake.socket.openConnections()).toBe(1);
  });

  it('acks a slash command and posts its respond() to the response_url', async () => {
    const envelope = fake.slashCommandEnvelope({
      command: '/loop',
      text: 'list',
      user_id: 'U0ALICE',
      channel_id: 'C0ONE',
    });
    const ack = await fake.socket.send(envelope);
    expect(ack.envelopeId).toBe(envelope.envelope_id);

    const response = await fake.waitForResponse();
    expect(response.body).toEqual({ response_type: 'ephemeral', text: 'loop list for U0ALICE' });
    expect(`${fake.baseUrl}/response/${response.id}`).toBe(
      (envelope.payload as { response_url: string }).response_url,
    );
  });

  it('delivers an app_mention whose say() lands in the thread', async () => {
    const mention = fake.appMentionEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'status' });
    expect(mention.text).toBe(`<@${fake.identity.botUserId}> status`);
    await fake.socket.send(fake.eventsApiEnvelope(mention));

    const reply = await fake.waitForCall('chat.postMessage');
    expect(reply.args).toMatchObject({ channel: 'C0ONE', text: 'on it', thread_ts: mention.ts });
  });
});

describe('a real Bolt app over HTTP', () => {
  let url: string;

  beforeEach(async () => {
    app = listen(
      new App({
        token: fake.identity.botToken,
        signingSecret,
        logger: createRecordingSlackLogger(),
        clientOptions: { slackApiUrl: fake.apiUrl },
      }),
    );
    const server = (await app.start(0)) as Server;
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });

  const post = (body: string, headers: Record<string, string>) =>
    fetch(url, { method: 'POST', headers, body });

  it('accepts a signed, form-encoded slash command and records its respond()', async () => {
    const body = fake.slashCommandHttpBody({
      command: '/loop',
      text: 'status',
      user_id: 'U0BOB',
      channel_id: 'C0ONE',
    });
    const headers = signSlackRequest(signingSecret, body);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect((await post(body, { ...headers })).status).toBe(200);

    const response = await fake.waitForResponse();
    expect(response.body).toMatchObject({ text: 'loop status for U0BOB' });
  });

  it('accepts a signed JSON event', async () => {
    const mention = fake.appMentionEvent({ channel: 'C0TWO', user: 'U0BOB', text: 'hi' });
    const body = fake.eventsApiHttpBody(mention);
    expect((await post(body, { ...signSlackRequest(signingSecret, body) })).status).toBe(200);

    const reply = await fake.waitForCall('chat.postMessage');
    expect(reply.args).toMatchObject({ channel: 'C0TWO', thread_ts: mention.ts });
  });

  it('is refused by Bolt when the signature is wrong or stale', async () => {
    const body = fake.slashCommandHttpBody({
      command: '/loop',
      text: 'list',
      user_id: 'U0BOB',
      channel_id: 'C0ONE',
    });
    const wrong = signSlackRequest('another-secret', body);
    const stale = signSlackRequest(signingSecret, body, Math.floor(Date.now() / 1000) - 600);
    expect((await post(body, { ...wrong })).status).toBe(401);
    expect((await post(body, { ...stale })).status).toBe(401);
    expect(fake.responses).toHaveLength(0);
  });
});
