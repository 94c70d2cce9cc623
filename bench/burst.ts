import { setTimeout as delay } from 'node:timers/promises';
import type { SocketAck } from '../test/fakes/fake-slack/create-ack-tracker.js';
import type { PromptRecord } from '../test/fakes/fake-agent-records.js';
import { burstText, checkBurst, type BurstMessage, type BurstVerdict } from './check-burst.js';
import type { CleanupStack } from './cleanup-stack.js';
import { promptReader } from './fake-agent-harness.js';
import type { JsonLinesReader } from './json-lines-reader.js';
import { percentile } from './percentile.js';
import { startSlackSessions } from './slack-sessions.js';
import { waitUntil } from './wait-until.js';

export interface BurstResult extends BurstVerdict {
  readonly sessions: number;
  /** Per round; loss, order and the ack samples are over every round. */
  readonly messages: number;
  readonly rounds: number;
  /** Slack's ack time − send time for each acknowledged envelope, ms. */
  readonly ackSamples: number[];
  /** Each round's ack p99, ms: one round is one sample of the machine (see docs/operations.md). */
  readonly roundAckP99s: number[];
  /** Envelopes never acknowledged within the timeout. */
  readonly unacked: number;
  /** Acknowledged envelopes per second, first send → last ack: how fast serve records arrivals. */
  readonly ackedPerS: number;
  /** First send → last prompt recorded, seconds. */
  readonly durationS: number;
  readonly msgsPerS: number;
  /** The bare Bolt app's round ack p99s in the same run (bolt-floor.ts): the ack's floor. */
  readonly boltRoundAckP99s?: number[];
}

const channel = 'C0BENCH';
const user = 'U0BENCH';
/** How long the agents may go without recording anything before the rest counts as lost. */
const stallMs = 30_000;

/**
 * `messages` Slack thread replies spread round-robin over `sessions` sessions, through the fake
 * Slack's Socket Mode into a real `serve` (Bolt, inbox, dedupe, delivery core) and into one fake
 * agent per session: loss, per-session order, throughput, and how long each ack took. Sent
 * `rounds` times, each round once the last has landed: a round's acks all come within about
 * 100 ms, so one stall of a shared machine moves every ack of it together, and a round is one
 * sample of its p99. `ratePerSecond` 0 sends each round at once.
 */
export async function measureBurst(options: {
  readonly sessions: number;
  /** Per round. */
  readonly messages: number;
  /** Bursts sent one after another to the same sessions, each once the last has landed. */
  readonly rounds: number;
  readonly ratePerSecond: number;
  readonly cleanup: CleanupStack;
}): Promise<BurstResult> {
  const { cleanup } = options;
  const { slack, serve, home, names, bindings } = await startSlackSessions({
    ...{ label: 'burst', sessions: options.sessions, channel, user, cleanup },
  });
  // Ready for serve too: its screen-readiness watchers poll each pane with a spawned
  // `capture-pane` until they see the prompt, and a burst sent while the last of fifty still poll
  // measures their spawns, not the intake.
  await waitUntil(
    async () => {
      const listed = await serve.api.request<{ sessions: Array<{ agentState: unknown }> }>(
        'GET',
        '/api/v1/standing-sessions',
      );
      return listed.body.sessions.every((session) => session.agentState !== 'starting');
    },
    { what: `${names.length} sessions ready in serve`, timeoutMs: 60_000, intervalMs: 50 },
  );

  const perRound = options.messages;
  const sent: BurstMessage[] = Array.from({ length: perRound * options.rounds }, (_, index) => ({
    session: names[index % names.length] ?? '',
    // Numbered on across rounds, so per-session order is checked over all of them.
    seq: Math.floor(index / names.length),
  }));
  const envelopeOf = (message: BurstMessage) => {
    const threadTs = bindings.get(`standing:${message.session}`)?.threadTs ?? '';
    return slack.eventsApiEnvelope(
      slack.messageEvent({ channel, user, text: burstText(message), threadTs }),
    );
  };

  const prompts = promptReader(home);
  const startedAt = process.hrtime.bigint();
  const answered: SocketAck[] = [];
  const roundP99s: number[] = [];
  let ackSpanMs = 0;
  for (let round = 0; round < options.rounds; round += 1) {
    // Built before the clock of the round starts: the sender's JSON is not serve's cost.
    const envelopes = sent.slice(round * perRound, (round + 1) * perRound).map(envelopeOf);
    const roundStart = process.hrtime.bigint();
    const acks: Array<Promise<SocketAck | undefined>> = [];
    for (const [index, envelope] of envelopes.entries()) {
      if (options.ratePerSecond > 0) {
        const due = (index * 1000) / options.ratePerSecond;
        const late = Number(process.hrtime.bigint() - roundStart) / 1e6;
        if (due > late) await delay(due - late);
      } else {
        // As fast as it can, but reading between sends like a real Slack: a send loop that never
        // yields leaves every ack unread until the last envelope is out, and times the bench.
        await new Promise((resolve) => setImmediate(resolve));
      }
      acks.push(slack.socket.send(envelope, { timeoutMs: 60_000 }).catch(() => undefined));
    }
    await waitForPrompts(prompts, (round + 1) * perRound);
    const roundAcks = (await Promise.all(acks)).filter((ack) => ack !== undefined);
    answered.push(...roundAcks);
    if (roundAcks.length > 0) {
      roundP99s.push(
        percentile(
          roundAcks.map((ack) => ack.ackedAt - ack.sentAt),
          99,
        ),
      );
      // Acks per second within each round: the pauses between rounds are not serve's.
      ackSpanMs +=
        Math.max(...roundAcks.map((ack) => ack.ackedAt)) -
        Math.min(...roundAcks.map((ack) => ack.sentAt));
    }
  }
  const ackSamples = answered.map((ack) => ack.ackedAt - ack.sentAt);
  const ackSpanS = ackSpanMs / 1000;
  const verdict = checkBurst(
    sent,
    prompts.all.map((record) => record.prompt),
  );
  const lastAt = prompts.all.reduce(
    (latest, record) => (BigInt(record.hrtime) > latest ? BigInt(record.hrtime) : latest),
    startedAt,
  );
  const durationS = Number(lastAt - startedAt) / 1e9;
  const landed = sent.length - verdict.lost;
  return {
    ...verdict,
    sessions: names.length,
    messages: perRound,
    rounds: options.rounds,
    ackSamples,
    roundAckP99s: roundP99s,
    unacked: sent.length - answered.length,
    ackedPerS: ackSpanS > 0 ? answered.length / ackSpanS : 0,
    durationS,
    msgsPerS: durationS > 0 ? landed / durationS : 0,
  };
}

/** Until `count` prompts are recorded, or none has come for `stallMs` (the rest count as lost). */
async function waitForPrompts(prompts: JsonLinesReader<PromptRecord>, count: number) {
  let lastCount = -1;
  let lastChange = performance.now();
  await waitUntil(
    async () => {
      await prompts.readNew();
      if (prompts.all.length !== lastCount) {
        lastCount = prompts.all.length;
        lastChange = performance.now();
      }
      return prompts.all.length >= count || performance.now() - lastChange > stallMs;
    },
    { what: 'the burst to land', timeoutMs: 240_000, intervalMs: 50 },
  );
}
