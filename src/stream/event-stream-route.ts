import type { Route, StreamSink } from '../api/route.js';
import type { Logger } from '../log/create-logger.js';
import type { EventFeed, WrittenEvent } from '../state/event-log.js';
import { parseLoggedLine, replayEventLog } from './replay-event-log.js';
import {
  formatSseEvent,
  keepAliveComment,
  matchesFilter,
  parseStreamQuery,
  type StreamFilter,
  type StreamQuery,
} from './stream-query.js';

export interface EventStreamOptions {
  readonly feed: EventFeed;
  readonly logger: Logger;
  /** Quiet time before a keep-alive comment. Default 15 s (docs/design.md §19). */
  readonly keepAliveMs?: number;
  /** A client that leaves this much unread (bytes queued, or events waiting) is let go. */
  readonly maxBufferedBytes?: number;
  readonly maxQueuedEvents?: number;
  readonly now?: () => number;
}

const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Tells a reverse proxy (nginx) not to hold the events back in its buffer.
  'x-accel-buffering': 'no',
} as const;

/** `GET /api/v1/stream`: the event log as Server-Sent Events (docs/design.md §19, docs/api.md). */
export function eventStreamRoute(options: EventStreamOptions): Route {
  return {
    method: 'GET',
    path: '/api/v1/stream',
    operationId: 'streamEvents',
    auth: 'operator',
    handler(request) {
      const header = request.headers?.['last-event-id'];
      const query = parseStreamQuery(
        request.query ?? new URLSearchParams(),
        typeof header === 'string' ? header : undefined,
      );
      return Promise.resolve({
        status: 200,
        body: null,
        stream: {
          headers: streamHeaders,
          run: (sink, signal) => runStream(options, query, sink, signal),
        },
      });
    },
  };
}

class TooSlow extends Error {}

/**
 * Subscribes first and notes the last line written at that moment (`head`): every line up to
 * `head` is on disk and comes from the replay, every later one comes from the subscription, so
 * the seam has no gap and no repeat. Ends when the client leaves or serve stops, and always
 * unsubscribes.
 */
async function runStream(
  options: EventStreamOptions,
  query: StreamQuery,
  sink: StreamSink,
  signal: AbortSignal,
): Promise<void> {
  const { feed, logger } = options;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const maxBytes = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  const maxQueued = options.maxQueuedEvents ?? 10_000;
  const now = options.now ?? Date.now;
  const queue: WrittenEvent[] = [];
  let wake: (() => void) | undefined;
  let lastSent = now();
  const unsubscribe = feed.subscribe((written) => {
    queue.push(written);
    wake?.();
  });
  const head = feed.lastWritten();

  const send = async (seq: number, event: string, line: string): Promise<void> => {
    lastSent = now();
    if (!sink.write(formatSseEvent(seq, event, line))) {
      if (sink.buffered() > maxBytes) throw new TooSlow();
      await sink.drained();
    }
  };

  const quiet = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      wake = done;
    });

  try {
    if (query.since !== undefined && query.since < head) {
      for await (const entry of replayEventLog(feed.files, query.since, head, logger)) {
        if (signal.aborted) return;
        if (queue.length > maxQueued) throw new TooSlow();
        if (matchesFilter(query.filter, entry.event, entry.fields)) {
          await send(entry.seq, entry.event, entry.line);
        }
      }
    }
    while (!signal.aborted) {
      const next = queue.shift();
      if (next === undefined) {
        const waited = now() - lastSent;
        if (waited >= keepAliveMs) {
          lastSent = now();
          sink.write(keepAliveComment);
          continue;
        }
        await quiet(keepAliveMs - waited);
        continue;
      }
      if (queue.length > maxQueued) throw new TooSlow();
      if (passes(query.filter, next)) await send(next.seq, next.event, next.line);
    }
  } catch (error) {
    if (!(error instanceof TooSlow)) throw error;
    // It reconnects with Last-Event-ID and gets the rest from the log.
    logger.warn({ event: 'stream.client_too_slow' }, 'event stream client fell behind; let go');
  } finally {
    unsubscribe();
    wake = undefined;
  }
}

function passes(filter: StreamFilter, written: WrittenEvent): boolean {
  if (filter.ref === undefined && filter.events === undefined) return true;
  if (filter.ref === undefined) return matchesFilter(filter, written.event, {});
  const parsed = parseLoggedLine(written.line);
  return parsed !== undefined && matchesFilter(filter, written.event, parsed.fields);
}
