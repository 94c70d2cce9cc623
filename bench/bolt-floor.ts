import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SocketAck } from '../test/fakes/fake-slack/create-ack-tracker.js';
import { startFakeSlack } from '../test/fakes/fake-slack/start-fake-slack.js';
import type { CleanupStack } from './cleanup-stack.js';
import { percentile } from './percentile.js';
import { stopChild } from './start-serve.js';

/** bin/the-loop's V8 flags: the floor runs under the same collector settings as serve. */
const SERVE_V8_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=10'];

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
  // Its own process, as serve is: in the bench's process the app would share the sender's event
  // loop, read each frame between two sends, and could never fall behind the way a separate
  // receiver can — a floor no process of ours could be compared with.
  const app = spawn(
    process.execPath,
    [
      ...SERVE_V8_FLAGS,
      '--import',
      'tsx',
      fileURLToPath(new URL('./bolt-floor-app.ts', import.meta.url)),
    ],
    {
      env: {
        ...process.env,
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_APP_TOKEN: slack.identity.appToken,
        SLACK_API_URL: slack.apiUrl,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanup.defer('stop the bare Bolt app', () => stopChild(app));
  await readyLine(app);
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

async function readyLine(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error('the bare Bolt app did not start in 15 s')),
      15_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes('ready\n')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bare Bolt app exited (${String(code)}) before it was ready`));
    });
  });
}
