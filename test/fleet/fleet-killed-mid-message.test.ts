import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testHoldEnv } from '../../src/test-hold.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { createAnnouncedOn, fleetServe, peoplePrompts } from './fleet-fixture.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();
const channel = 'C0OPS';
const dana = 'U0DANA';
const title = `an owner killed mid-message loses nothing and gets nothing twice (docs/design.md §21)${unavailable ? ` (skipped: ${unavailable})` : ''}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer | undefined;
  let slack: FakeSlack | undefined;
  const serves: ServeFixture[] = [];

  afterEach(async () => {
    for (const serve of serves.splice(0)) await serve.dispose();
    await slack?.stop();
    await nats?.dispose();
  });

  // JetStream hands an unacked message out again after the consumer's ack wait (30 s).
  it.each([
    ['after it took the envelope from JetStream, before its inbox held it', 'before-record'],
    ['after its inbox held the envelope, before it acked it', 'before-ack'],
  ])('killed %s', async (_when, stage) => {
    nats = await startNatsServer();
    slack = await startFakeSlack({ spread: true, users: { [dana]: { name: 'dana' } } });
    const other = await fleetServe('other', nats, slack);
    serves.push(other);
    await other.start();
    await slack.socket.connections(1, 20_000);
    const marker = path.join(other.dir, 'held');
    const owner = await fleetServe('owner', nats, slack, {
      [testHoldEnv]: `${stage}:${marker}`,
    });
    serves.push(owner);
    await owner.start();
    await slack.socket.connections(2, 20_000);
    const threadTs = await createAnnouncedOn(owner, slack);
    const reply = (text: string) =>
      slack!.socket.send(
        slack!.eventsApiEnvelope(slack!.messageEvent({ channel, user: dana, text, threadTs })),
        { timeoutMs: 10_000 },
      );

    await reply('held mid-message');
    await eventually(
      () =>
        access(marker).then(
          () => true,
          () => false,
        ),
      {
        timeoutMs: 20_000,
        what: 'the owner to hold the envelope',
      },
    );
    await owner.kill('SIGKILL');
    await owner.start();
    await eventually(() => owner.output().includes('"fleet.redelivered"'), {
      timeoutMs: 60_000,
      what: 'JetStream to hand the unacked envelope over again',
    });
    await reply('after the restart');
    const received = await eventually(
      async () => {
        const prompts = await peoplePrompts(owner);
        return prompts.some((prompt) => prompt.endsWith('after the restart')) ? prompts : undefined;
      },
      { timeoutMs: 30_000, what: 'both messages in the owner' },
    );
    expect(received.map((prompt) => prompt.split('\n\n').at(-1))).toEqual([
      'held mid-message',
      'after the restart',
    ]);
  });
});
