import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openSse, type SseClient } from '../test/helpers/sse-client.js';
import type { CleanupStack } from './cleanup-stack.js';
import { formatSoak, judgeSoak, type SoakSample, type SoakVerdict } from './soak-verdict.js';
import { startSlackSessions } from './slack-sessions.js';

export interface SoakResult extends SoakVerdict {
  readonly minutes: number;
  readonly sessions: number;
  readonly slackSent: number;
  readonly apiSent: number;
  /** Sends that failed or were not acknowledged (Slack) / answered 2xx (API). */
  readonly failedSends: number;
  /** Events the stream client got, and ids it found missing or repeated across its reconnects. */
  readonly streamEvents: number;
  readonly streamGaps: number;
  readonly samples: readonly SoakSample[];
  /** For people: the samples and the verdict (also written to stderr as the soak runs). */
  readonly report: string;
}

const channel = 'C0SOAK';
const user = 'U0SOAK';

/** Every regular file under the state root, the dedupe ledger's counted apart. */
async function countFiles(
  dir: string,
  counts = { state: 0, dedupe: 0 },
  where: 'root' | 'state' | 'dedupe' = 'root',
): Promise<{ state: number; dedupe: number }> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inside = where === 'root' && entry.name === 'dedupe' ? 'dedupe' : where;
      await countFiles(full, counts, inside === 'root' ? 'state' : inside);
    } else if (entry.isFile()) {
      if (where === 'dedupe') counts.dedupe += 1;
      else counts.state += 1;
    }
  }
  return counts;
}

/**
 * docs/design.md §18 Growth: `sessions` sessions on the fake agent, messages from Slack (the fake
 * Slack's Socket Mode into the real Bolt client) and from the API (`say`), for `minutes`, while
 * an event-stream client reconnects with Last-Event-ID at every sample. Samples serve's RSS, its
 * open descriptors (/proc/<pid>/fd) and the state root's files over time, then judges their
 * slopes after warm-up (soak-verdict.ts).
 */
export async function measureSoak(options: {
  readonly minutes: number;
  readonly sessions: number;
  /** Messages per second, half from Slack, half from the API. */
  readonly ratePerSecond: number;
  readonly cleanup: CleanupStack;
}): Promise<SoakResult> {
  const { cleanup } = options;
  const { slack, serve, names, bindings } = await startSlackSessions({
    ...{ label: 'soak', sessions: options.sessions, channel, user, cleanup },
  });

  const socketPath = path.join(serve.stateRoot, 'control.sock');
  let stream: SseClient | undefined;
  let lastId = 0;
  let streamEvents = 0;
  let streamGaps = 0;
  const takeStream = (): void => {
    if (stream === undefined) return;
    for (const event of stream.events) {
      const id = Number(event.id);
      if (lastId !== 0 && id !== lastId + 1) streamGaps += 1;
      lastId = id;
      streamEvents += 1;
    }
    stream.close();
  };
  const reconnect = async (): Promise<void> => {
    takeStream();
    stream = await openSse({ socketPath }, '/api/v1/stream', {
      ...(lastId > 0 ? { 'Last-Event-ID': String(lastId) } : {}),
    });
  };
  cleanup.defer('close the stream client', () => Promise.resolve(stream?.close()));
  await reconnect();

  const durationMs = options.minutes * 60_000;
  const sampleMs = Math.max(5_000, durationMs / 60);
  const samples: SoakSample[] = [];
  const began = performance.now();
  const minute = () => (performance.now() - began) / 60_000;
  const sample = async (): Promise<void> => {
    const [memory, fds, files, log] = await Promise.all([
      serve.memory(),
      readdir(`/proc/${serve.pid}/fd`),
      countFiles(serve.stateRoot),
      stat(path.join(serve.stateRoot, 'events.jsonl')).catch(() => ({ size: 0 })),
    ]);
    const next = {
      minute: minute(),
      rssMb: memory.rssMb,
      fds: fds.length,
      stateFiles: files.state,
      dedupeEntries: files.dedupe,
      eventLogBytes: log.size,
    };
    samples.push(next);
    process.stderr.write(
      `bench: soak ${next.minute.toFixed(1)} min: rss ${next.rssMb.toFixed(1)} MB, ` +
        `fds ${next.fds}, state files ${next.stateFiles}, dedupe ${next.dedupeEntries}\n`,
    );
    await reconnect();
  };

  let slackSent = 0;
  let apiSent = 0;
  let failedSends = 0;
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<boolean>): void => {
    const done = work.then(
      (ok) => {
        if (!ok) failedSends += 1;
      },
      () => {
        failedSends += 1;
      },
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  const gapMs = 1000 / options.ratePerSecond;
  let nextSample = 0;
  for (let n = 0; performance.now() - began < durationMs; n += 1) {
    if (performance.now() - began >= nextSample) {
      await sample();
      nextSample += sampleMs;
    }
    const name = names[n % names.length] ?? '';
    const text = `soak message ${n}`;
    if (inFlight.size > 200) {
      failedSends += 1; // serve is not keeping up; not piling on is part of the measure
    } else if (n % 2 === 0) {
      const threadTs = bindings.get(`standing:${name}`)?.threadTs ?? '';
      const envelope = slack.eventsApiEnvelope(
        slack.messageEvent({ channel, user, text, threadTs }),
      );
      slackSent += 1;
      track(slack.socket.send(envelope, { timeoutMs: 60_000 }).then((ack) => ack !== undefined));
    } else {
      apiSent += 1;
      track(
        serve.api
          .request('POST', `/api/v1/standing-sessions/${name}/say`, { text })
          .then((answer) => answer.status < 300),
      );
    }
    const due = (n + 1) * gapMs;
    const late = performance.now() - began;
    if (due > late) await delay(due - late);
  }
  await Promise.all([...inFlight]);
  await sample();
  takeStream();
  stream = undefined;

  const slackPerMinute = slackSent / options.minutes;
  const verdict = judgeSoak(samples, slackPerMinute);
  const report = formatSoak(samples, verdict);
  process.stderr.write(`${report}\n`);
  return {
    ...verdict,
    minutes: options.minutes,
    sessions: names.length,
    slackSent,
    apiSent,
    failedSends,
    streamEvents,
    streamGaps,
    samples,
    report,
  };
}
