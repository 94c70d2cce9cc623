import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlServer, type ControlServer } from '../../../src/api/create-control-server.js';
import { openEventLog, type EventFeed, type EventLog } from '../../../src/state/event-log.js';
import { eventStreamRoute } from '../../../src/stream/event-stream-route.js';
import { captureLogger, type CapturedLog } from '../../helpers/capture-logger.js';
import { eventually } from '../../helpers/eventually.js';
import { makeTempDir, type TempDir } from '../../helpers/fs-fixtures.js';
import { openSse, type SseClient, type SseTarget } from '../../helpers/sse-client.js';

interface Rig {
  readonly events: EventLog & EventFeed;
  readonly socket: SseTarget;
  readonly server: ControlServer;
  readonly log: CapturedLog;
  readonly dir: string;
  /** Subscriptions the stream holds on the log right now. */
  subscribed(): number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(
  options: { maxBytes?: number; keepAliveMs?: number; lastSeq?: number; token?: string } = {},
): Promise<Rig> {
  const temp: TempDir = await makeTempDir('loop-stream-');
  const log = captureLogger();
  const events = openEventLog({
    path: path.join(temp.path, 'events.jsonl'),
    logger: log.logger,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.lastSeq === undefined ? {} : { lastSeq: options.lastSeq }),
  });
  let subscribed = 0;
  // The real log, counting its subscriptions so a test can show none is left behind.
  const feed: EventFeed = {
    files: events.files,
    lastWritten: () => events.lastWritten(),
    subscribe(listener) {
      subscribed += 1;
      const unsubscribe = events.subscribe(listener);
      return () => {
        subscribed -= 1;
        unsubscribe();
      };
    },
  };
  const socketPath = path.join(temp.path, 'control.sock');
  const route = eventStreamRoute({
    feed,
    logger: log.logger,
    keepAliveMs: options.keepAliveMs ?? 60_000,
  });
  const server = createControlServer({
    routes: [route],
    logger: log.logger,
    socketPath,
    ...(options.token === undefined
      ? {}
      : { tcp: { host: '127.0.0.1', port: 0, token: options.token } }),
  });
  await server.start();
  cleanups.push(async () => {
    await server.stop();
    await events.close();
    await temp.remove();
  });
  return {
    events,
    socket: { socketPath },
    server,
    log,
    dir: temp.path,
    subscribed: () => subscribed,
  };
}

function stream(rig: Rig, query = '', headers: Record<string, string> = {}): Promise<SseClient> {
  return openSse(rig.socket, `/api/v1/stream${query}`, headers).then((client) => {
    cleanups.push(async () => {
      client.close();
      await client.ended;
    });
    return client;
  });
}

const ids = (client: SseClient) => client.events.map((event) => Number(event.id));
const names = (client: SseClient) => client.events.map((event) => event.event);
const hasId = (seq: number) => (client: SseClient) => ids(client).includes(seq);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('GET /api/v1/stream', () => {
  it('sends the headers at once, before any event', async () => {
    const client = await stream(await rig());
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.events).toEqual([]);
  });

  it('without Last-Event-ID is live only: id, event name and the log line as data', async () => {
    const server = await rig();
    server.events.record('standing.created', { name: 'alpha' });
    await server.events.flush();
    const client = await stream(server);
    await eventually(() => server.subscribed() === 1, { what: 'the stream to subscribe' });
    server.events.record('delivery.delivered', { ref: 'standing:alpha', text: 'never sent' });
    await client.until(hasId(2), 'event 2');
    expect(client.events).toHaveLength(1);
    const [event] = client.events;
    expect(event?.event).toBe('delivery.delivered');
    expect(JSON.parse(event?.data ?? '')).toMatchObject({
      event: 'delivery.delivered',
      seq: 2,
      ref: 'standing:alpha',
    });
    expect(event?.data).not.toContain('never sent');
  });

  it('with Last-Event-ID or ?since= replays what came after, then goes live', async () => {
    const server = await rig();
    for (const n of range(1, 5)) server.events.record('tick', { n });
    await server.events.flush();
    const byHeader = await stream(server, '', { 'Last-Event-ID': '2' });
    const byQuery = await stream(server, '?since=2');
    // The header wins: a browser reconnecting sends it with the URL it first opened.
    const both = await stream(server, '?since=0', { 'Last-Event-ID': '4' });
    for (const client of [byHeader, byQuery]) {
      await client.until(hasId(5), 'the replay');
      expect(ids(client)).toEqual([3, 4, 5]);
    }
    await both.until(hasId(5), 'the replay');
    server.events.record('tick', { n: 6 });
    for (const client of [byHeader, byQuery]) await client.until(hasId(6), 'the live event');
    await both.until(hasId(6), 'the live event');
    expect(ids(byHeader)).toEqual([3, 4, 5, 6]);
    expect(ids(byQuery)).toEqual([3, 4, 5, 6]);
    expect(ids(both)).toEqual([5, 6]);
  });

  it('has no gap and no repeat at the seam while the log is being written', async () => {
    const server = await rig();
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        for (let burst = 0; burst < 20; burst += 1) server.events.record('burst', { n: written++ });
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await eventually(() => server.events.lastWritten() > 200, { what: '200 events written' });
    const clients = await Promise.all([stream(server, '?since=0'), stream(server, '?since=150')]);
    await eventually(() => server.events.lastWritten() > 2_000, { what: 'more events' });
    writing = false;
    await writer;
    await server.events.flush();
    const last = server.events.lastWritten();
    for (const client of clients) await client.until(hasId(last), `event ${last}`);
    expect(ids(clients[0]!)).toEqual(range(1, last));
    expect(ids(clients[1]!)).toEqual(range(151, last));
  });

  it('replays across the rotated files and keeps streaming through a rotation', async () => {
    const server = await rig({ maxBytes: 4_096 });
    const padding = 'x'.repeat(150);
    // One batch per event, so the rotation (checked per batch) happens every ~20 lines.
    for (const n of range(1, 60)) {
      server.events.record('tick', { n, padding });
      await server.events.flush();
    }
    const files = (await readdir(server.dir)).filter((file) => file.startsWith('events.jsonl'));
    expect(files.sort()).toEqual(['events.jsonl', 'events.jsonl.1', 'events.jsonl.2']);
    // The oldest events have been rotated away; what is left is replayed in order, then live.
    const client = await stream(server, '?since=0');
    await client.until(hasId(60), 'the replay');
    const replayed = ids(client);
    expect(replayed).toEqual(range(replayed[0] ?? 0, 60));
    expect(replayed[0]).toBeGreaterThan(1);
    for (const n of range(61, 140)) {
      server.events.record('tick', { n, padding });
      await server.events.flush();
    }
    await client.until(hasId(140), 'live events through rotations');
    expect(ids(client)).toEqual(range(replayed[0] ?? 0, 140));
    expect(server.log.events()).toContain('events.rotated');
  });

  it('sends a keep-alive comment after a quiet interval', async () => {
    const server = await rig({ keepAliveMs: 100 });
    const client = await stream(server);
    await client.until((sse) => sse.comments.includes('keep-alive'), 'a keep-alive');
    expect(client.events).toEqual([]);
  });

  it('filters by ref (standing.* events by their name) and by event names with *', async () => {
    const server = await rig();
    const byRef = await stream(server, '?ref=standing:alpha');
    const byName = await stream(server, '?events=agent.state,delivery.*');
    const both = await stream(
      server,
      `?ref=${encodeURIComponent('standing:alpha')}&events=delivery.*`,
    );
    const byIssue = await stream(
      server,
      `?ref=${encodeURIComponent('https://github.com/octo/repo/issues/7')}`,
    );
    await eventually(() => server.subscribed() === 4, { what: 'four subscriptions' });
    server.events.record('standing.created', { name: 'alpha' }); // 1
    server.events.record('standing.created', { name: 'beta' }); // 2
    server.events.record('agent.state', { ref: 'standing:alpha', state: 'idle' }); // 3
    server.events.record('delivery.delivered', { ref: 'standing:beta' }); // 4
    server.events.record('delivery.queued', { ref: 'standing:alpha' }); // 5
    server.events.record('deliveryx', { ref: 'standing:alpha' }); // 6
    server.events.record('workitem.started', { ref: 'github:octo/repo#7' }); // 7
    server.events.record('serve.stopped', {}); // 8
    await server.events.flush();
    await byRef.until(hasId(6), 'ref events');
    await byName.until(hasId(5), 'named events');
    await both.until(hasId(5), 'both');
    await byIssue.until(hasId(7), 'issue events');
    expect(ids(byRef)).toEqual([1, 3, 5, 6]);
    expect(ids(byName)).toEqual([3, 4, 5]);
    expect(ids(both)).toEqual([5]);
    expect(ids(byIssue)).toEqual([7]);
    expect(names(byName)).toEqual(['agent.state', 'delivery.delivered', 'delivery.queued']);
  });

  it.each([
    ['?events=agent%20state', /`events` must be a comma list/],
    ['?events=', /`events` must be a comma list/],
    ['?events=a,,b', /`events` must be a comma list/],
    ['?since=-1', /`since` must be a whole number/],
    ['?since=abc', /`since` must be a whole number/],
    ['?ref=alpha', /`ref` must name one session: `standing:<name>`/],
    ['?ref=standing:Not_A_Name', /`ref` must name one session/],
    ['?evnts=agent.state', /unknown parameter `evnts`.*use since, ref or events/],
    ['?ref=standing:a&ref=standing:b', /given more than once/],
  ])('refuses %s with 400 and a remedy', async (query, message) => {
    const server = await rig();
    const client = await stream(server, query);
    await client.ended;
    expect(client.status).toBe(400);
    const body = JSON.parse(client.body) as { error: string; code: string };
    expect(body.code).toBe('bad_request');
    expect(body.error).toMatch(message);
    expect(server.subscribed()).toBe(0);
  });

  it('refuses a Last-Event-ID that is not an id', async () => {
    const server = await rig();
    const client = await stream(server, '', { 'Last-Event-ID': 'yesterday' });
    await client.ended;
    expect(client.status).toBe(400);
    expect(client.body).toMatch(/Last-Event-ID header must be a whole number/);
  });

  it('frees its subscription when the client hangs up, however many come and go', async () => {
    const server = await rig({ keepAliveMs: 50 });
    for (let round = 0; round < 5; round += 1) {
      const clients = await Promise.all(range(1, 10).map(() => stream(server, '?since=0')));
      await eventually(() => server.subscribed() === 10, { what: '10 subscriptions' });
      server.events.record('tick', { round });
      await Promise.all(clients.map((client) => client.until((sse) => sse.events.length > 0, 'x')));
      for (const client of clients) client.close();
      await eventually(() => server.subscribed() === 0, { what: 'every subscription freed' });
    }
    expect(server.log.lines.filter((line) => line['level'] === 50)).toEqual([]);
  });

  it('ends open streams at once when the server stops', async () => {
    const server = await rig();
    const client = await stream(server);
    await eventually(() => server.subscribed() === 1, { what: 'the subscription' });
    const started = Date.now();
    await server.server.stop();
    await client.ended;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.subscribed()).toBe(0);
  });

  it('needs the bearer token on TCP', async () => {
    const server = await rig({ token: 'sekrit-token' });
    const address = server.server.tcpAddress();
    if (address === undefined) throw new Error('no TCP listener');
    const refused = await openSse(address, '/api/v1/stream');
    await refused.ended;
    expect(refused.status).toBe(401);
    const client = await openSse(address, '/api/v1/stream', {
      authorization: 'Bearer sekrit-token',
    });
    cleanups.push(async () => {
      client.close();
      await client.ended;
    });
    expect(client.status).toBe(200);
    await eventually(() => server.subscribed() === 1, { what: 'the subscription' });
    server.events.record('serve.started', {});
    await client.until(hasId(1), 'the event over TCP');
  });
});
