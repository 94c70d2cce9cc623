import { App, LogLevel } from '@slack/bolt';
import type { SocketAck } from '../test/fakes/fake-slack/create-ack-tracker.js';
import { startFakeSlack } from '../test/fakes/fake-slack/start-fake-slack.js';
import type { CleanupStack } from './cleanup-stack.js';
import { percentile } from './percentile.js';

export interface BoltFloorResult {
  /** Each round's ack p99, ms (judged on their median, as the burst is). */
  readonly roundAckP99s: number[];
  readonly unacked: number;
}

/**
 * The floor of the burst's ack (docs/design.md §10, issue 25): a bare Bolt app in Socket Mode that
 * acks each envelope on receipt and does nothing else, sent the same burst the same way in the
 * same run. the-loop persists each message before it acks and Bolt does not, so its ack p99 is
 * judged as a ratio to this one.
 */
export async function measureBoltFloor(options: {
  readonly messages: number;
  readonly rounds: number;
  readonly cleanup: CleanupStack;
}): Promise<BoltFloorResult> {
  const { cleanup } = options;
  const slack = await startFakeSlack({ users: { U0BOLT: { name: 'bolt' } } });
  cleanup.defer('stop the Bolt floor fake Slack', () => slack.stop());
  const app = new App({
    token: slack.identity.botToken,
    appToken: slack.identity.appToken,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl },
  });
  app.message(async () => undefined);
  await app.start();
  cleanup.defer('stop the bare Bolt app', () => app.stop());
  await slack.socket.connected(15_000);
  const roundAckP99s: number[] = [];
  let unacked = 0;
  for (let round = 0; round < options.rounds; round += 1) {
    const envelopes = Array.from({ length: options.messages }, (_, index) =>
      slack.eventsApiEnvelope(
        slack.messageEvent({
          channel: 'C0BOLT',
          user: 'U0BOLT',
          text: `floor ${round} ${index}`,
          threadTs: '1700000000.000100',
        }),
      ),
    );
    const acks: Array<Promise<SocketAck | undefined>> = [];
    for (const envelope of envelopes) {
      // As the burst sends: reading between sends like a real Slack.
      await new Promise((resolve) => setImmediate(resolve));
      acks.push(slack.socket.send(envelope, { timeoutMs: 60_000 }).catch(() => undefined));
    }
    const answered = (await Promise.all(acks)).filter((ack) => ack !== undefined);
    unacked += envelopes.length - answered.length;
    if (answered.length > 0) {
      roundAckP99s.push(
        percentile(
          answered.map((ack) => ack.ackedAt - ack.sentAt),
          99,
        ),
      );
    }
  }
  return { roundAckP99s, unacked };
}
