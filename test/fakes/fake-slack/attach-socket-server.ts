import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { createAckTracker, type SocketAck } from './create-ack-tracker.js';
import type { FakeSlackIdentity } from './fake-slack-identity.js';

/** What Slack sends down a Socket Mode connection for each event, command or interaction. */
export interface SocketEnvelope {
  readonly envelope_id: string;
  readonly type: string;
  readonly accepts_response_payload: boolean;
  readonly payload: unknown;
  readonly retry_attempt?: number;
  readonly retry_reason?: string;
}

export interface FakeSocket {
  /**
   * Resolves once a client has connected and been sent `hello` (at once if one already is). The
   * client may not have read `hello` yet: before disconnecting it, await its own `connected`.
   */
  connected(timeoutMs?: number): Promise<void>;
  /** Resolves once at least `count` clients are connected. */
  connections(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once no client is connected: after `app.stop()`, so nothing is left open. */
  disconnected(timeoutMs?: number): Promise<void>;
  openConnections(): number;
  /**
   * Sends an envelope to the newest client (spreading: to the next one in turn); resolves with its
   * ack, rejects after `timeoutMs`.
   */
  send(envelope: SocketEnvelope, options?: { timeoutMs?: number }): Promise<SocketAck>;
  /** Which connection (0 = the oldest open one) each envelope went to, by envelope id. */
  readonly sentTo: ReadonlyMap<string, number>;
  /** Every ack received, late ones included, in order. */
  readonly acks: readonly SocketAck[];
  /**
   * Ends every connection and resolves when they are closed: with a `reason`, by sending Slack's
   * `disconnect` message and letting the client close; without, by closing from the server side.
   */
  disconnectAll(options?: { reason?: string }): Promise<void>;
}

/** Socket Mode on `/socket` of the fake's HTTP server, for URLs `issueUrl` hands out once each. */
export function attachSocketServer(
  server: Server,
  deps: {
    identity: FakeSlackIdentity;
    now: () => number;
    isDown: () => boolean;
    spread?: boolean;
  },
): FakeSocket & { issueUrl(): string; close(): void } {
  const wss = new WebSocketServer({ noServer: true });
  const tickets = new Set<string>();
  const clients = new Set<WebSocket>();
  const acks = createAckTracker(deps.now);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const sentTo = new Map<string, number>();
  let turn = 0;

  const hello = {
    type: 'hello',
    num_connections: 1,
    debug_info: { host: 'fake', approximate_connection_time: 18060 },
    connection_info: { app_id: deps.identity.apiAppId },
  };

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (deps.isDown() || url.pathname !== '/socket' || !tickets.delete(ticket)) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('close', () => {
        clients.delete(ws);
        events.emit('change');
      });
      ws.on('error', () => ws.terminate());
      ws.on('message', (data) => acks.receive(data));
      ws.send(JSON.stringify(hello));
      events.emit('change');
    });
  });

  function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        events.off('change', onChange);
        events.off('stop', onStop);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onChange = () => {
        if (condition()) settle();
      };
      const onStop = () => settle(new Error(`fake Slack stopped while waiting for ${what}`));
      const timer = setTimeout(
        () => settle(new Error(`fake Slack: waited ${timeoutMs} ms for ${what}`)),
        timeoutMs,
      );
      events.on('change', onChange);
      events.on('stop', onStop);
    });
  }

  return {
    acks: acks.acks,
    issueUrl() {
      const ticket = randomUUID();
      tickets.add(ticket);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      return `ws://127.0.0.1:${port}/socket?ticket=${ticket}&app_id=${deps.identity.apiAppId}`;
    },
    openConnections: () => clients.size,
    connected: (timeoutMs = 10_000) =>
      until(() => clients.size > 0, timeoutMs, 'a Socket Mode client to connect'),
    connections: (count, timeoutMs = 10_000) =>
      until(() => clients.size >= count, timeoutMs, `${count} Socket Mode clients to connect`),
    sentTo,
    disconnected: (timeoutMs = 10_000) =>
      until(() => clients.size === 0, timeoutMs, 'every Socket Mode client to disconnect'),
    send(envelope, { timeoutMs = 5_000 } = {}) {
      const open = [...clients];
      const index = deps.spread ? turn++ % Math.max(1, open.length) : open.length - 1;
      const ws = open[index];
      if (ws === undefined) {
        return Promise.reject(new Error('fake Slack: no Socket Mode client is connected'));
      }
      sentTo.set(envelope.envelope_id, index);
      const ack = acks.expect(envelope.envelope_id, timeoutMs);
      ws.send(JSON.stringify(envelope));
      return ack;
    },
    async disconnectAll({ reason } = {}) {
      const open = [...clients];
      const closed = open.map((ws) => new Promise((resolve) => ws.once('close', resolve)));
      for (const ws of open) {
        if (reason === undefined) ws.close(1001, 'fake Slack closed the connection');
        else ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake' } }));
      }
      await Promise.all(closed);
    },
    close() {
      for (const ws of clients) ws.terminate();
      wss.close();
      acks.close();
      events.emit('stop');
    },
  };
}
