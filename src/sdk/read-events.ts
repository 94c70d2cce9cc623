import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { type ApiClient, readResponse, unwrap } from '../api/create-api-client.js';
import { LoopError } from '../errors.js';
import { createSseParser } from './parse-sse.js';

/** One event of the log, as `GET /api/v1/stream` sends it (docs/design.md §19). */
export interface LoopEvent {
  /** The event's sequence number: it only grows, across restarts and the log's rotation. */
  readonly id: number;
  /** The event's name, such as `agent.state` or `delivery.delivered`. */
  readonly event: string;
  /** Its fields (never message text or secrets). */
  readonly data: Readonly<Record<string, unknown>>;
}

export interface EventsOptions {
  /** Replay the events after this id first; without it the stream is live only. */
  readonly since?: number;
  /** Only events of this ref (`standing:sup`, `github:octo/repo#12`). */
  readonly ref?: string;
  /** Only these events; a trailing `*` matches a family (`delivery.*`). */
  readonly events?: readonly string[];
  /** Ends the iteration (as `break` does). */
  readonly signal?: AbortSignal;
  /** Reconnect after a dropped connection (default true), resuming after the last event seen. */
  readonly reconnect?: boolean;
}

const firstRetryMs = 250;
const lastRetryMs = 5_000;

/**
 * The event stream as an async iterable. A dropped connection (serve restarting, a proxy timing
 * out) is reopened with `Last-Event-ID`, so no event is missed or seen twice; a refusal (401,
 * 404) ends the iteration with its LoopError. Breaking out of the loop closes the connection.
 */
export async function* readEvents(
  client: ApiClient,
  options: EventsOptions = {},
): AsyncGenerator<LoopEvent, void, undefined> {
  const local = new AbortController();
  const stop = (): void => local.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  let lastId = options.since;
  let retryMs = firstRetryMs;
  try {
    while (!local.signal.aborted) {
      let response: IncomingMessage;
      try {
        response = await client.open(
          streamPath(options, lastId),
          streamHeaders(lastId),
          local.signal,
        );
      } catch (error) {
        if (local.signal.aborted) return;
        if (options.reconnect === false || !isDropped(error)) throw error;
        await delay(retryMs, undefined, { signal: local.signal }).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, lastRetryMs);
        continue;
      }
      if (response.statusCode !== 200) unwrap(await readResponse(response));
      retryMs = firstRetryMs;
      const parser = createSseParser();
      response.setEncoding('utf8');
      try {
        for await (const chunk of response as AsyncIterable<string>) {
          for (const message of parser.push(chunk)) {
            const event = toLoopEvent(message.id, message.event, message.data);
            if (event === undefined) continue;
            lastId = event.id;
            yield event;
          }
        }
      } catch (error) {
        if (local.signal.aborted) return;
        if (options.reconnect === false) throw error;
      } finally {
        response.destroy();
      }
      if (options.reconnect === false) return;
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    local.abort();
  }
}

function streamPath(options: EventsOptions, lastId: number | undefined): string {
  const query = new URLSearchParams();
  // After a reconnect Last-Event-ID says where to go on; `since` says it only the first time.
  if (lastId !== undefined) query.set('since', String(lastId));
  if (options.ref !== undefined) query.set('ref', options.ref);
  if (options.events !== undefined && options.events.length > 0) {
    query.set('events', options.events.join(','));
  }
  const text = query.toString();
  return `/api/v1/stream${text ? `?${text}` : ''}`;
}

function streamHeaders(lastId: number | undefined): Record<string, string> {
  return {
    accept: 'text/event-stream',
    ...(lastId === undefined ? {} : { 'last-event-id': String(lastId) }),
  };
}

/** Reconnecting helps when serve was away, not when it refused. */
function isDropped(error: unknown): boolean {
  return (
    error instanceof LoopError && (error.code === 'serve_not_running' || error.code === 'internal')
  );
}

function toLoopEvent(id: string | undefined, event: string, data: string): LoopEvent | undefined {
  const seq = Number(id);
  if (id === undefined || !Number.isSafeInteger(seq)) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  return { id: seq, event, data: fields as Record<string, unknown> };
}
