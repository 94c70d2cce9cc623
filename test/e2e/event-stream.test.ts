import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/create-api-client.js';
import { freePort } from '../helpers/free-port.js';
import { readEvents } from '../helpers/read-events.js';
import { createServeFixture, type ServeFixture } from '../helpers/run-serve.js';
import { openSse, type SseClient } from '../helpers/sse-client.js';

const token = 'stream-e2e-token-0123456789';
let fixture: ServeFixture | undefined;
const clients: SseClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await fixture?.dispose();
  fixture = undefined;
});

async function stream(
  serve: ServeFixture,
  query = '',
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const socketPath = path.join(serve.stateRoot, 'control.sock');
  const client = await openSse({ socketPath }, `/api/v1/stream${query}`, headers);
  clients.push(client);
  return client;
}

const named = (name: string) => (client: SseClient) =>
  client.events.some((event) => event.event === name);

describe('GET /api/v1/stream on a real serve', () => {
  it('streams a session’s events without its text, and numbers on across a restart', async () => {
    const port = await freePort();
    fixture = await createServeFixture(() => ({ api: { listen: `127.0.0.1:${port}` } }), {
      env: { THE_LOOP_API_TOKEN: token },
    });
    const serve = fixture;
    await serve.start();

    const all = await stream(serve, '?since=0');
    await all.until(named('serve.started'), 'serve.started replayed');
    const alpha = await stream(serve, '?ref=standing:alpha');
    const created = await serve.cli(['standing', 'create', 'alpha', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    await alpha.until(named('standing.created'), 'standing.created of alpha');
    const said = await serve.cli(['standing', 'say', 'alpha', 'the secret words of the message']);
    expect(said.exitCode, said.stderr).toBe(0);
    await alpha.until(
      (client) => client.events.some((event) => event.event?.startsWith('delivery.') === true),
      'a delivery event of alpha',
      30_000,
    );
    for (const client of [all, alpha]) {
      expect(client.events.map((event) => event.data).join('\n')).not.toContain('secret words');
    }
    expect(alpha.events.every((event) => event.data.includes('alpha'))).toBe(true);
    const ids = all.events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // Over TCP the bearer token is needed, as for every route.
    const refused = await openSse({ host: '127.0.0.1', port }, '/api/v1/stream');
    await refused.ended;
    expect(refused.status).toBe(401);
    const viaTcp = await openSse({ host: '127.0.0.1', port }, '/api/v1/stream?since=0', {
      authorization: `Bearer ${token}`,
    });
    clients.push(viaTcp);
    await viaTcp.until(named('standing.created'), 'the replay over TCP');

    // A clean stop ends the streams; the next serve numbers on, and a client resuming with
    // Last-Event-ID gets what it missed (serve.stopped) and what came after.
    await all.until(named('delivery.delivered'), 'the delivery in the full stream', 30_000);
    const lastSeen = all.events.at(-1)?.id ?? '0';
    expect(await serve.kill('SIGTERM')).toBeDefined();
    await Promise.all([all.ended, alpha.ended, viaTcp.ended]);
    await serve.start();
    const resumed = await stream(serve, '', { 'Last-Event-ID': lastSeen });
    await resumed.until(named('serve.started'), 'the second serve.started');
    const resumedIds = resumed.events.map((event) => Number(event.id));
    expect(resumedIds[0]).toBe(Number(lastSeen) + 1);
    expect(resumedIds).toEqual(resumedIds.map((_, index) => Number(lastSeen) + 1 + index));
    expect(resumed.events.map((event) => event.event)).toContain('serve.stopped');
  });

  it('rotates at state.eventLog.maxBytes and streams on across the rotated files', async () => {
    fixture = await createServeFixture(() => ({
      state: { root: 'state', eventLog: { maxBytes: 4096 } },
    }));
    const serve = fixture;
    await serve.start();
    const live = await stream(serve);
    const created = await serve.cli(['standing', 'create', 'alpha']);
    expect(created.exitCode, created.stderr).toBe(0);
    const api = createApiClient({ socketPath: path.join(serve.stateRoot, 'control.sock') });
    // Until the third rotation has dropped the oldest lines (`.2` no longer starts at seq 1).
    const oldest = path.join(serve.stateRoot, 'events.jsonl.2');
    const firstSeq = async () => (await readEvents(oldest).catch(() => []))[0]?.seq ?? 0;
    for (let n = 0; n < 100 && Number(await firstSeq()) <= 1; n += 1) {
      const said = await api.request('POST', '/api/v1/standing-sessions/alpha/say', {
        text: `message ${n}`,
      });
      expect(said.status).toBeLessThan(300);
    }
    expect(Number(await firstSeq())).toBeGreaterThan(1);
    const files = await readdir(serve.stateRoot);
    expect(files.filter((name) => name.startsWith('events.jsonl')).sort()).toEqual([
      'events.jsonl',
      'events.jsonl.1',
      'events.jsonl.2',
    ]);
    await live.until((client) => client.events.length > 20, 'the live events');
    const replay = await stream(serve, '?since=0');
    const last = Number(live.events.at(-1)?.id);
    await replay.until(
      (client) => client.events.some((event) => Number(event.id) >= last),
      'the replay to reach the live events',
    );
    const ids = replay.events.map((event) => Number(event.id));
    // The oldest lines were dropped with the third rotation; the rest come without a gap.
    expect(ids[0]).toBeGreaterThan(1);
    expect(ids).toEqual(ids.map((_, index) => (ids[0] ?? 0) + index));
    const liveIds = live.events.map((event) => Number(event.id));
    expect(liveIds).toEqual(liveIds.map((_, index) => (liveIds[0] ?? 0) + index));
  });
});
