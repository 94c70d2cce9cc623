import { SocketModeClient } from '@slack/socket-mode';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { createRecordingSlackLogger } from './recording-slack-logger.js';

interface SlackEventArgs {
  readonly type: string;
  readonly body: { event?: { text?: string }; command?: string };
  readonly retry_num?: number;
  readonly ack: (response?: Record<string, unknown>) => Promise<void>;
}

let fake: FakeSlack;
const clients: SocketModeClient[] = [];

/** A real Socket Mode client pointed at the fake; the short ping timeout makes reconnects quick. */
function socketClient(
  appToken = fake.identity.appToken,
  logger = createRecordingSlackLogger(),
): SocketModeClient {
  const client = new SocketModeClient({
    appToken,
    logger,
    clientPingTimeout: 300,
    clientOptions: { slackApiUrl: fake.apiUrl },
  });
  clients.push(client);
  return client;
}

beforeEach(async () => {
  fake = await startFakeSlack();
});

afterEach(async () => {
  // Disconnect before stopping the fake, or the client would try to reconnect to a closed port.
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  await fake.stop();
});

describe('Socket Mode, driven by the real SocketModeClient', () => {
  it('connects with the app token, delivers an events_api envelope and returns its ack', async () => {
    const client = socketClient();
    const received: SlackEventArgs[] = [];
    client.on('slack_event', async (args: SlackEventArgs) => {
      received.push(args);
      await args.ack();
    });
    await client.start();
    await fake.socket.connected();
    expect(fake.callsTo('apps.connections.open')[0]?.token).toBe(fake.identity.appToken);

    const event = fake.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'hello there' });
    const envelope = fake.eventsApiEnvelope(event, { retryAttempt: 1, retryReason: 'timeout' });
    const ack = await fake.socket.send(envelope);

    expect(ack.envelopeId).toBe(envelope.envelope_id);
    expect(ack.ackedAt).toBeGreaterThanOrEqual(ack.sentAt);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ type: 'events_api', retry_num: 1 });
    expect(received[0]?.body.event?.text).toBe('hello there');
    expect(fake.socket.acks).toEqual([ack]);
  });

  it('returns the payload of an ack that carries one', async () => {
    const client = socketClient();
    client.on('slash_commands', async (args: SlackEventArgs) => {
      await args.ack({ text: `ran ${args.body.command ?? ''}` });
    });
    await client.start();
    const envelope = fake.slashCommandEnvelope({
      command: '/loop',
      text: 'list',
      user_id: 'U0ALICE',
      channel_id: 'C0ONE',
    });
    const ack = await fake.socket.send(envelope);
    expect(ack.payload).toEqual({ text: 'ran /loop' });
  });

  it('rejects send when the envelope is not acknowledged in time', async () => {
    const client = socketClient();
    await client.start();
    const envelope = fake.eventsApiEnvelope(
      fake.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'x' }),
    );
    await expect(fake.socket.send(envelope, { timeoutMs: 100 })).rejects.toThrow(
      /not acknowledged within 100 ms/,
    );
  });

  it('rejects send when no client is connected', async () => {
    const envelope = fake.eventsApiEnvelope(
      fake.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'x' }),
    );
    await expect(fake.socket.send(envelope)).rejects.toThrow(/no Socket Mode client is connected/);
  });

  it.each([
    ['closing the socket', undefined],
    ["sending Slack's disconnect message", 'refresh_requested'],
  ])('lets the client reconnect after %s', async (_how, reason) => {
    const client = socketClient();
    await client.start();
    // The fake counts a connection once `hello` is sent; the client is connected once it reads it.
    const reconnected = new Promise((resolve) => client.once('connected', resolve));
    await fake.socket.disconnectAll({ reason });
    expect(fake.socket.openConnections()).toBe(0);

    await Promise.all([fake.socket.connected(), reconnected]);
    expect(fake.socket.openConnections()).toBe(1);
    expect(fake.callsTo('apps.connections.open')).toHaveLength(2);
  });

  it('refuses a wrong app token so the client stops at once', async () => {
    const logger = createRecordingSlackLogger();
    await expect(socketClient('xapp-wrong', logger).start()).rejects.toMatchObject({
      data: { error: 'invalid_auth' },
    });
    expect(logger.lines.join('\n')).toMatch(/Failed to retrieve a new WSS URL.*invalid_auth/);
  });

  it('accepts each connection URL once', async () => {
    const client = socketClient();
    let used: unknown;
    client.once('authenticated', (response: { url?: string }) => {
      used = response.url;
    });
    await client.start();
    expect(used).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket\?ticket=/);
    const replay = new WebSocket(String(used));
    const outcome = await new Promise((resolve) => {
      replay.once('open', () => resolve('opened'));
      replay.once('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
    expect(fake.socket.openConnections()).toBe(1);
  });

  it('stop() ends live connections and pending sends at once', async () => {
    const other = await startFakeSlack();
    const { url } = await new WebClient(other.identity.appToken, {
      slackApiUrl: other.apiUrl,
    }).apps.connections.open();
    const raw = new WebSocket(String(url));
    const closed = new Promise((resolve) => raw.once('close', resolve));
    await other.socket.connected();
    const envelope = other.eventsApiEnvelope(
      other.messageEvent({ channel: 'C0ONE', user: 'U0ALICE', text: 'x' }),
    );
    const unacked = other.socket.send(envelope);

    await other.stop();

    await expect(unacked).rejects.toThrow(/stopped before envelope/);
    await closed;
    expect(other.socket.openConnections()).toBe(0);
  });
});
