import { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack/start-fake-slack.js';
import { createRecordingSlackLogger } from './recording-slack-logger.js';

let fake: FakeSlack | undefined;
const apps: App[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  await fake?.socket.disconnected();
  await fake?.stop();
});

/** A real Bolt app in Socket Mode that counts the mentions it was handed. */
async function boltApp(slack: FakeSlack, seen: string[]): Promise<App> {
  const app = new App({
    token: slack.identity.botToken,
    appToken: slack.identity.appToken,
    socketMode: true,
    logger: createRecordingSlackLogger(),
    clientOptions: { slackApiUrl: slack.apiUrl },
  });
  app.event('app_mention', async ({ event }) => {
    seen.push(event.text.replace(/^<@[A-Z0-9]+> /, ''));
  });
  await app.start();
  apps.push(app);
  return app;
}

describe('the fake Slack spreads one app over its Socket Mode connections (docs/design.md §21)', () => {
  it('hands each envelope to one of two real Bolt apps in turn, each acking its own', async () => {
    fake = await startFakeSlack({ spread: true });
    const first: string[] = [];
    const second: string[] = [];
    await boltApp(fake, first);
    await boltApp(fake, second);
    await fake.socket.connections(2);
    const texts = ['m1', 'm2', 'm3', 'm4'];
    for (const text of texts) {
      const envelope = fake.eventsApiEnvelope(
        fake.appMentionEvent({ channel: 'C0ONE', user: 'U0ALICE', text }),
      );
      const ack = await fake.socket.send(envelope);
      expect(ack.envelopeId).toBe(envelope.envelope_id);
    }
    expect([...first, ...second].sort()).toEqual(texts);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect([...fake.socket.sentTo.values()]).toEqual([0, 1, 0, 1]);
  });

  it('without spreading, sends every envelope to the newest connection, as before', async () => {
    fake = await startFakeSlack();
    const first: string[] = [];
    const second: string[] = [];
    await boltApp(fake, first);
    await boltApp(fake, second);
    await fake.socket.connections(2);
    for (const text of ['a', 'b']) {
      await fake.socket.send(
        fake.eventsApiEnvelope(fake.appMentionEvent({ channel: 'C0ONE', user: 'U0ALICE', text })),
      );
    }
    expect(first).toEqual([]);
    expect(second).toEqual(['a', 'b']);
  });
});
