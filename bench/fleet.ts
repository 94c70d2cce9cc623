import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SocketAck } from '../test/fakes/fake-slack/create-ack-tracker.js';
import { startFakeSlack, type FakeSlack } from '../test/fakes/fake-slack/start-fake-slack.js';
import { natsServerBinary, startNatsServer } from '../test/fleet/nats-server.js';
import { measureBoltFloor } from './bolt-floor.js';
import { burstText, checkBurst, type BurstMessage, type BurstVerdict } from './check-burst.js';
import type { CleanupStack } from './cleanup-stack.js';
import { createSessions } from './create-sessions.js';
import {
  awaitPrompt,
  fakeAgentHarness,
  latencyMs,
  promptReader,
  waitForAgentsReady,
} from './fake-agent-harness.js';
import { startPrivateTmux } from './private-tmux.js';
import { readBindings } from './read-bindings.js';
import { startServe, type BenchServe } from './start-serve.js';
import { waitUntil } from './wait-until.js';

export interface FleetBenchResult {
  /** Set when the scenario could not run here: why (its rows say so instead of failing). */
  readonly skipped?: string;
  /** Reply received by the owner itself (still through `LOOP_IN`) → prompt recorded, ms. */
  readonly localSamples: number[];
  /** Reply received by another instance and delivered by the owner → prompt recorded, ms. */
  readonly hopSamples: number[];
  readonly burst?: BurstVerdict & {
    readonly messages: number;
    readonly sessions: number;
    readonly ackSamples: number[];
    readonly unacked: number;
  };
  /** A bare Bolt app's ack p99 for the same number of envelopes, same run (bolt-floor.ts). */
  readonly boltAckP99s: number[];
}

const channel = 'C0FLEET';
const user = 'U0FLEET';
const names = ['fleet-a', 'fleet-b', 'fleet-c'] as const;

/**
 * The fleet (docs/design.md §21, issue 25): a real `nats-server`, one fake Slack that spreads
 * envelopes over three serves' Socket Mode connections. The hop: replies to a session on
 * `fleet-a`, in turns received by `fleet-a` (local) and by the others (a hop through NATS to
 * `fleet-a`). The burst: `messages` replies over `sessions` sessions spread over the three
 * instances: loss, per-thread order, ack p99 beside a bare Bolt app's.
 */
export async function measureFleet(options: {
  readonly hops: number;
  readonly messages: number;
  readonly sessions: number;
  readonly cleanup: CleanupStack;
}): Promise<FleetBenchResult> {
  if (!natsServerBinary()) {
    return {
      skipped: 'nats-server is not installed (apt-get install nats-server)',
      localSamples: [],
      hopSamples: [],
      boltAckP99s: [],
    };
  }
  const { cleanup } = options;
  const nats = await startNatsServer();
  cleanup.defer('stop nats-server', () => nats.dispose());
  const slack = await startFakeSlack({ spread: true, users: { [user]: { name: 'fleet' } } });
  cleanup.defer('stop the fake Slack', () => slack.stop());
  const serves: BenchServe[] = [];
  for (const name of names) {
    const tmux = await startPrivateTmux(name, cleanup);
    const serve = await startServe({
      label: name,
      cleanup,
      tmuxSocket: tmux.socket,
      config: (dir) => ({
        instance: { name, scope: { mode: 'open' } },
        harnesses: { fake: fakeAgentHarness(path.join(dir, 'agent')) },
        defaults: { harness: 'fake', cwd: '.' },
        standing: { autoStart: false, allowedRoots: ['.'], sessions: [] },
        slack: { enabled: true, mode: 'socket', channel, authorizedUsers: [user] },
        fleet: { nats: nats.url, retention: '1h' },
      }),
      env: {
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_APP_TOKEN: slack.identity.appToken,
        SLACK_API_URL: slack.apiUrl,
      },
    });
    await mkdir(path.join(serve.dir, 'agent'), { recursive: true });
    // Connection n is serve n: the fake spreads envelopes over them in that order.
    await slack.socket.connections(serves.length + 1, 20_000);
    serves.push(serve);
  }
  const owner = serves[0]!;
  const [hop] = await announce(owner, ['hop']);
  const prompts = promptReader(path.join(owner.dir, 'agent'));
  const localSamples: number[] = [];
  const hopSamples: number[] = [];
  // Three sends per round: the fake hands them to connections 0, 1, 2 in turn.
  const warmup = 3;
  for (let index = 0; index < warmup + options.hops * 3; index += 1) {
    const text = `hop ${index}`;
    const envelope = slack.eventsApiEnvelope(
      slack.messageEvent({ channel, user, text, threadTs: hop ?? '' }),
    );
    const sentAt = process.hrtime.bigint();
    await slack.socket.send(envelope, { timeoutMs: 10_000 });
    const record = await awaitPrompt(prompts, index, text, 'fleet hop');
    if (index < warmup) continue;
    const receivedBy = slack.socket.sentTo.get(envelope.envelope_id);
    (receivedBy === 0 ? localSamples : hopSamples).push(latencyMs(sentAt, record));
  }

  const burst = await fleetBurst(slack, serves, options);
  const bolt = await measureBoltFloor({ messages: options.messages, rounds: 1, cleanup });
  return { localSamples, hopSamples, burst, boltAckP99s: bolt.roundAckP99s };
}

/** Creates and announces sessions on `serve`; resolves with their thread timestamps, in order. */
async function announce(serve: BenchServe, sessionNames: readonly string[]): Promise<string[]> {
  const home = path.join(serve.dir, 'agent');
  const before = (await readBindings(serve.stateRoot)).size;
  await createSessions(
    serve.api,
    sessionNames,
    { harness: 'fake', slackChannel: channel, start: true },
    4,
  );
  const bindings = await waitUntil(
    async () => {
      const found = await readBindings(serve.stateRoot);
      return found.size >= before + sessionNames.length && found;
    },
    { what: `${sessionNames.length} sessions announced`, timeoutMs: 60_000, intervalMs: 100 },
  );
  await waitForAgentsReady(home, before + sessionNames.length, 60_000);
  return sessionNames.map((name) => bindings.get(`standing:${name}`)?.threadTs ?? '');
}

async function fleetBurst(
  slack: FakeSlack,
  serves: readonly BenchServe[],
  options: { readonly messages: number; readonly sessions: number },
): Promise<NonNullable<FleetBenchResult['burst']>> {
  const sessionNames = Array.from({ length: options.sessions }, (_, index) => `fb-${index}`);
  const threads = new Map<string, string>();
  for (const [at, serve] of serves.entries()) {
    const mine = sessionNames.filter((_, index) => index % serves.length === at);
    const stamps = await announce(serve, mine);
    mine.forEach((name, index) => threads.set(name, stamps[index] ?? ''));
  }
  const readers = serves.map((serve) => promptReader(path.join(serve.dir, 'agent')));
  const base = await Promise.all(
    readers.map(async (reader) => (await reader.readNew(), reader.all.length)),
  );
  const sent: BurstMessage[] = Array.from({ length: options.messages }, (_, index) => ({
    session: sessionNames[index % sessionNames.length] ?? '',
    seq: Math.floor(index / sessionNames.length),
  }));
  const envelopes = sent.map((message) =>
    slack.eventsApiEnvelope(
      slack.messageEvent({
        channel,
        user,
        text: burstText(message),
        threadTs: threads.get(message.session) ?? '',
      }),
    ),
  );
  const acks: Array<Promise<SocketAck | undefined>> = [];
  for (const envelope of envelopes) {
    await new Promise((resolve) => setImmediate(resolve));
    acks.push(slack.socket.send(envelope, { timeoutMs: 60_000 }).catch(() => undefined));
  }
  const landed = () =>
    readers.reduce((sum, reader, index) => sum + reader.all.length - (base[index] ?? 0), 0);
  let last = -1;
  let lastChange = performance.now();
  await waitUntil(
    async () => {
      for (const reader of readers) await reader.readNew();
      if (landed() !== last) {
        last = landed();
        lastChange = performance.now();
      }
      return landed() >= sent.length || performance.now() - lastChange > 30_000;
    },
    { what: 'the fleet burst to land', timeoutMs: 240_000, intervalMs: 50 },
  );
  const answered = (await Promise.all(acks)).filter((ack) => ack !== undefined);
  // Each agent's records are in the order it received them; a session lives on one instance.
  const recorded = readers.flatMap((reader, index) =>
    reader.all.slice(base[index] ?? 0).map((record) => record.prompt),
  );
  return {
    ...checkBurst(sent, recorded),
    messages: sent.length,
    sessions: sessionNames.length,
    ackSamples: answered.map((ack) => ack.ackedAt - ack.sentAt),
    unacked: sent.length - answered.length,
  };
}
