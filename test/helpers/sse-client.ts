import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** One Server-Sent Event as a client sees it. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

export interface SseClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every event so far, in order. */
  readonly events: SseEvent[];
  /** Every comment line so far (`: keep-alive` → `keep-alive`). */
  readonly comments: string[];
  /** The body of a non-200 answer (empty for a stream). */
  readonly body: string;
  /** Resolves once `check` holds for what arrived (checked on every event and comment). */
  until(check: (client: SseClient) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the response (or the client is closed). */
  readonly ended: Promise<void>;
  close(): void;
}

export type SseTarget =
  { readonly socketPath: string } | { readonly host: string; readonly port: number };

/**
 * A minimal EventSource over node:http (unix socket or TCP), for tests of `GET /api/v1/stream`:
 * it parses `id:`, `event:`, `data:` and comment lines as the SSE spec reads them, and awaits
 * what arrives rather than sleeping.
 */
export function openSse(
  target: SseTarget,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ ...target, path, method: 'GET', headers });
    outgoing.once('error', reject);
    outgoing.once('response', (response: IncomingMessage) => {
      resolve(readStream(response, () => outgoing.destroy()));
    });
    outgoing.end();
  });
}

function readStream(response: IncomingMessage, destroy: () => void): SseClient {
  const waiters = new Set<() => void>();
  let buffer = '';
  let body = '';
  let fields: { id?: string; event?: string; data: string[] } = { data: [] };
  const client: SseClient = {
    status: response.statusCode ?? 0,
    headers: response.headers,
    events: [],
    comments: [],
    get body() {
      return body;
    },
    until(check, what, timeoutMs = 10_000) {
      if (check(client)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(client.events)}`));
        }, timeoutMs);
        function test(): void {
          if (!check(client)) return;
          clearTimeout(timer);
          waiters.delete(test);
          resolve();
        }
        waiters.add(test);
      });
    },
    ended: new Promise((resolve) => {
      response.once('close', () => resolve());
    }),
    close: destroy,
  };
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const take = (line: string): void => {
    if (line === '') {
      if (fields.data.length > 0) {
        client.events.push({ id: fields.id, event: fields.event, data: fields.data.join('\n') });
        notify();
      }
      fields = { data: [] };
      return;
    }
    if (line.startsWith(':')) {
      client.comments.push(line.slice(1).trim());
      notify();
      return;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'id') fields.id = value;
    else if (name === 'event') fields.event = value;
    else if (name === 'data') fields.data.push(value);
  };
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    if (client.status !== 200) {
      body += chunk;
      return;
    }
    buffer += chunk;
    let end = buffer.indexOf('\n');
    while (end !== -1) {
      take(buffer.slice(0, end).replace(/\r$/, ''));
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf('\n');
    }
  });
  response.on('end', notify);
  return client;
}
