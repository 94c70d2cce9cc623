import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { createAnnouncedOn, fleetServe, peoplePrompts } from './fleet-fixture.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();
const channel = 'C0OPS';
const dana = 'U0DANA';
const title = `fleet faults lose nothing${unavailable ? ` (skipped: ${unavailable})` : ''}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer | undefined;
  let slack: FakeSlack | undefined;
  const serves: ServeFixture[] = [];

  afterEach(async () => {
    for (const serve of serves.splice(0)) await serve.dispose();
    await slack?.stop();
    await nats?.dispose();
  });

  /** Two serves, `owner` first (connection 0) and `other` second; `sup` announced on `owner`. */
  const twoServes = async () => {
    nats = await startNatsServer();
    slack = await startFakeSlack({ spread: true, users: { [dana]: { name: 'dana' } } });
    const owner = await fleetServe('owner', nats, slack);
    serves.push(owner);
    await owner.start();
    await slack.socket.connections(1, 20_000);
    const other = await fleetServe('other', nats, slack);
    serves.push(other);
    await other.start();
    await slack.socket.connections(2, 20_000);
    return { owner, other, slack, threadTs: await createAnnouncedOn(owner, slack) };
  };

  const replyVia = async (fake: FakeSlack, threadTs: string, text: string) => {
    const envelope = fake.eventsApiEnvelope(
      fake.messageEvent({ channel, user: dana, text, threadTs }),
    );
    return fake.socket.send(envelope, { timeoutMs: 10_000 });
  };

  it('an owner that is down gets its messages when it returns; the thread is told at once, once', async () => {
    const { owner, slack: fake, threadTs } = await twoServes();
    await owner.kill('SIGTERM');
    await fake.socket.connections(1);
    // Both go to the one open connection: the other instance's.
    await replyVia(fake, threadTs, 'while you were out');
    await replyVia(fake, threadTs, 'and another');
    // Within 10 s of the first message that waits (docs/design.md §21).
    const notice = await fake.waitForCall(
      'chat.postMessage',
      (call) => String(call.args['text']).startsWith('queued: instance owner is offline since'),
      10_000,
    );
    expect(notice.args['thread_ts']).toBe(threadTs);
    expect(String(notice.args['text'])).toMatch(/offline since .+; messages wait for it$/);
    await owner.start();
    const received = await eventually(
      async () => {
        const prompts = await peoplePrompts(owner);
        return prompts.length >= 2 ? prompts : undefined;
      },
      { timeoutMs: 40_000, what: 'both messages after the owner returned' },
    );
    expect(received.map((prompt) => prompt.split('\n\n').at(-1))).toEqual([
      'while you were out',
      'and another',
    ]);
    const notices = fake
      .callsTo('chat.postMessage')
      .filter((call) => String(call.args['text']).startsWith('queued:'));
    expect(notices).toHaveLength(1);
  });

  it('NATS down: the owner keeps its own messages, the other keeps them in its outbox; nothing twice', async () => {
    const { owner, other, slack: fake, threadTs } = await twoServes();
    await nats!.stop();
    await eventually(async () => (await other.cli(['status'])).stdout.includes('down since'), {
      timeoutMs: 20_000,
      what: 'the fleet to be down',
    });
    // Spread: the first to `owner` (handled locally), the second to `other` (its outbox).
    const first = await replyVia(fake, threadTs, 'local while down');
    const second = await replyVia(fake, threadTs, 'outbox while down');
    expect(first.envelopeId).toBeTruthy();
    expect(second.envelopeId).toBeTruthy();
    const status = await other.cli(['status']);
    expect(status.exitCode).toBe(1);
    expect(status.stdout).toMatch(/fleet.*down since/);
    await nats!.start();
    const received = await eventually(
      async () => {
        const prompts = await peoplePrompts(owner);
        return prompts.length >= 2 ? prompts : undefined;
      },
      { timeoutMs: 40_000, what: 'both messages in the owner' },
    );
    expect(received.map((prompt) => prompt.split('\n\n').at(-1)).sort()).toEqual([
      'local while down',
      'outbox while down',
    ]);
    // Another round trip through the fleet, then nothing came twice.
    await replyVia(fake, threadTs, 'after');
    await eventually(async () => (await peoplePrompts(owner)).length >= 3, {
      timeoutMs: 30_000,
      what: 'a third message',
    });
    expect(await peoplePrompts(owner)).toHaveLength(3);
  });
});
