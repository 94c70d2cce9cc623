import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/create-logger.js';
import { isSlackInboxMessage } from '../../src/slack/slack-inbox-message.js';
import { createInbox } from '../../src/intake/inbox.js';
import { eventually } from '../helpers/eventually.js';
import type { ServeFixture } from '../helpers/run-serve.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/start-fake-slack.js';
import { agentRecords } from './support/agent-records.js';
import { eventsOf } from './support/serve-log.js';
import {
  createAnnounced,
  sendReply,
  startSlackServe,
  slackOperator,
} from './support/slack-serve.js';

interface Sent {
  readonly text: string;
  acked: boolean;
}

/** Messages recorded and not yet handled, read as serve reads them after a restart. */
async function inboxCount(fixture: ServeFixture): Promise<number> {
  const inbox = createInbox({
    dir: path.join(fixture.stateRoot, 'inbox', 'slack'),
    validate: isSlackInboxMessage,
    logger: silentLogger(),
  });
  return (await inbox.pending()).length;
}

describe('serve killed with SIGKILL in the middle of a burst of Slack thread replies', () => {
  let slack: FakeSlack | undefined;
  let fixture: ServeFixture | undefined;

  afterEach(async () => {
    await fixture?.dispose();
    await slack?.stop();
  });

  it('delivers every acknowledged reply exactly once and in order after each restart', async () => {
    slack = await startFakeSlack({ users: { [slackOperator]: { name: 'dana' } } });
    const fake = slack;
    fixture = await startSlackServe(fake);
    const serve = fixture;
    const threadTs = await createAnnounced(serve, fake, 'burst');
    const sent: Sent[] = [];
    // The kill lands early, in the middle and at the very end of a burst of 12.
    const killAfterAcks = [2, 7, 12];
    const burst = 12;

    for (const [round, killAt] of killAfterAcks.entries()) {
      let acks = 0;
      let killing: Promise<unknown> | undefined;
      let killed: () => void = () => undefined;
      const killStarted = new Promise<void>((resolve) => {
        killed = resolve;
      });
      const kill = () => {
        killing ??= serve.kill('SIGKILL');
        killed();
        return killing;
      };
      const sends: Promise<void>[] = [];
      for (let index = 0; index < burst && !killing; index += 1) {
        const entry: Sent = { text: `round ${round} reply ${index}`, acked: false };
        sent.push(entry);
        sends.push(
          sendReply(fake, threadTs, entry.text, { timeoutMs: 4_000 }).then(
            () => {
              // An ack that arrived is an accepted message, even one racing the kill.
              entry.acked = true;
              acks += 1;
              if (acks === killAt) void kill();
            },
            () => undefined,
          ),
        );
        await delay(15);
      }
      await Promise.race([killStarted, Promise.all(sends)]);
      await kill();
      // Acks are read before the close that follows them, so every ack is counted by now; the
      // replies still waiting for one will never get it.
      await fake.socket.disconnected(10_000);
      const leftInInbox = await inboxCount(serve);

      await serve.start();
      await fake.socket.connected(15_000);
      // Every recorded reply left at the crash is handled again. Wait for the outcome of each
      // (it comes after the agent has recorded the prompt); the restart records how many there
      // were as it starts, before its own `serve.started`.
      const { recovered } = await eventually(
        async () => {
          const events = await eventsOf(serve);
          const starts = events.flatMap((entry, at) =>
            entry.event === 'serve.started' ? [at] : [],
          );
          if (starts.length < round + 2) return undefined;
          // From the start before the kill on; the recovery entry marks the restart.
          const since = events.slice(starts.at(-2));
          const recovery = since.findIndex((entry) => entry.event === 'slack.recovered');
          const outcomes = since
            .slice(recovery + 1)
            .filter(
              (entry) => /^delivery\./.test(entry.event) && entry['ref'] === 'standing:burst',
            );
          const drained = (await inboxCount(serve)) === 0;
          if (!drained || (leftInInbox > 0 && (recovery < 0 || outcomes.length < leftInInbox)))
            return undefined;
          return { recovered: since.filter((entry) => entry.event === 'slack.recovered') };
        },
        { timeoutMs: 30_000, what: `round ${round}: the recorded replies to be handled` },
      );
      // The report: the restarted daemon says how many recorded messages it picked up.
      expect(recovered.map((entry) => entry['count'])).toEqual(
        leftInInbox > 0 ? [leftInInbox] : [],
      );
    }

    const received = await agentRecords.bodies(serve);
    const acked = sent.filter((entry) => entry.acked).map((entry) => entry.text);
    const order = sent.map((entry) => entry.text);
    expect(acked.length).toBeGreaterThanOrEqual(killAfterAcks.reduce((sum, n) => sum + n, 0));
    for (const text of acked) {
      expect({ text, times: received.filter((body) => body === text).length }).toEqual({
        text,
        times: 1,
      });
    }
    // Nothing unknown, nothing twice (an unacknowledged reply may have been recorded or not),
    // and everything in the order it was sent.
    expect(received.every((body) => order.includes(body))).toBe(true);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual([...received].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  }, 90_000);
});
