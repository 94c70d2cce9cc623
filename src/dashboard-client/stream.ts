/**
 * The page's one event stream (docs/design.md §19: browsers allow six connections per host):
 * `GET /api/v1/stream`, Server-Sent Events named after the events. EventSource reconnects by
 * itself and sends Last-Event-ID, so nothing is missed across a blip.
 */

export interface StreamEvent {
  readonly id: string;
  readonly name: string;
  readonly data: Record<string, unknown>;
}

/** The events a page may show or react to; EventSource hears only names it listens for. */
export const streamedEvents = [
  'agent.state',
  'agent.posted',
  'agent.start_dialog',
  'agent.message',
  'session.exited',
  'standing.created',
  'standing.deleted',
  'standing.started',
  'standing.resumed',
  'standing.resume_failed',
  'standing.stopped',
  'standing.stop_failed',
  'standing.spawn_failed',
  'standing.said',
  'standing.announced',
  'workitem.started',
  'workitem.resumed',
  'workitem.stopped',
  'workitem.announced',
  'delivery.queued',
  'delivery.held',
  'delivery.delivered',
  'delivery.failed',
  'delivery.unconfirmed',
  'permission.requested',
  'permission.allowed',
  'permission.denied',
  'permission.expired',
  'permission.answered_in_terminal',
  'config.reloaded',
  'serve.started',
] as const;

export function openStream(
  query: Record<string, string>,
  onEvent: (event: StreamEvent) => void,
  onOpen: () => void = () => undefined,
): EventSource {
  const search = new URLSearchParams(query).toString();
  const source = new EventSource(`/api/v1/stream${search ? `?${search}` : ''}`);
  for (const name of streamedEvents) {
    source.addEventListener(name, (message) => {
      const { data, lastEventId } = message as MessageEvent<string>;
      let parsed: Record<string, unknown> = {};
      try {
        const value: unknown = JSON.parse(data);
        if (typeof value === 'object' && value !== null) parsed = value as Record<string, unknown>;
      } catch {
        // A line that is not JSON is shown by its name alone.
      }
      onEvent({ id: lastEventId, name, data: parsed });
    });
  }
  source.addEventListener('open', onOpen);
  // A serve without the stream (an older one) or a stream that ended for good: keep the page
  // current by asking every few seconds instead.
  let polling: number | undefined;
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED || polling !== undefined) return;
    polling = window.setInterval(onOpen, 2_000);
  });
  return source;
}

/** Calls `run` once after a burst of calls has been quiet for `ms`. */
export function debounce(run: () => void, ms: number): () => void {
  let timer: number | undefined;
  return () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  };
}
