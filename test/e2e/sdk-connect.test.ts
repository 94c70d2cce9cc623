import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, LoopError, type Loop, type LoopEvent } from '../../src/index.js';
import { readEvents } from '../helpers/read-events.js';
import { createServeFixture, waitForTurns, type ServeFixture } from '../helpers/run-serve.js';

/**
 * The SDK (docs/design.md §20, docs/sdk.md) against a real serve: every call, errors as
 * LoopError with the API's code, and events() resuming after serve drops the stream. The same
 * calls from the packed tarball are in package-install.test.ts.
 */
let serve: ServeFixture;
let loop: Loop;

beforeAll(async () => {
  serve = await createServeFixture(() => ({
    standing: {
      autoStart: true,
      allowedRoots: ['work'],
      sessions: [{ name: 'alpha', description: 'writes the code' }],
    },
  }));
  await serve.start();
  await waitForTurns(serve, 'standing:alpha', 1);
  loop = await connect({ config: serve.configPath, env: { USER: 'ana' } });
}, 60_000);

afterAll(async () => {
  await serve?.dispose();
});

/** Pulls events until one matches; the iterator stays open for the next call. */
async function until(
  events: AsyncIterator<LoopEvent>,
  seen: LoopEvent[],
  match: (event: LoopEvent) => boolean,
): Promise<LoopEvent> {
  for (;;) {
    const next = await events.next();
    if (next.done) throw new Error('the event stream ended');
    seen.push(next.value);
    if (match(next.value)) return next.value;
  }
}

describe('connect(): the standing-session calls', () => {
  it('list, get, create, start, say, deliveries.get, stop, restart, delete', async () => {
    expect((await loop.standing.list()).map((session) => session.name)).toEqual(['alpha']);
    expect(await loop.standing.get('alpha')).toMatchObject({
      status: 'running',
      agentState: 'idle',
    });

    const created = await loop.standing.create({ name: 'gamma', start: false, description: 'd' });
    expect(created).toMatchObject({ name: 'gamma', source: 'created', status: 'stopped' });
    expect(await loop.standing.start('gamma')).toMatchObject({ outcome: 'started' });
    await waitForTurns(serve, 'standing:gamma', 1);

    const said = await loop.standing.say('gamma', 'hello from the SDK', { actor: 'ana' });
    expect(said).toMatchObject({ outcome: 'delivered' });
    expect(await loop.deliveries.get(said.deliveryId)).toMatchObject({
      deliveryId: said.deliveryId,
      ref: 'standing:gamma',
      outcome: 'delivered',
    });

    expect(await loop.standing.stop('gamma')).toMatchObject({ outcome: 'stopped' });
    expect(await loop.standing.restart('gamma')).toMatchObject({ outcome: 'resumed' });
    await loop.standing.stop('gamma');
    expect(await loop.standing.delete('gamma')).toEqual({ name: 'gamma', deleted: true });
  });

  it('refusals are LoopErrors carrying the API code and its remedy', async () => {
    const unknown = await loop.standing.get('nobody').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(LoopError);
    expect(unknown).toMatchObject({ code: 'session_unknown', details: { status: 404 } });
    await expect(loop.standing.create({ name: 'alpha' })).rejects.toMatchObject({
      code: 'name_taken',
    });
    await expect(loop.standing.say('alpha', '')).rejects.toMatchObject({ code: 'empty_message' });
    await expect(loop.post('hi')).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('connect(): work items, the instance, permissions, status', () => {
  it('answers each', async () => {
    expect(await loop.workItems.list()).toEqual([]);
    await expect(loop.workItems.stop('github:octo/repo#1')).resolves.toMatchObject({
      outcome: 'already-stopped',
    });
    expect(await loop.instance()).toMatchObject({ name: '', scope: { mode: 'open' } });
    expect(await loop.permissions.list()).toEqual([]);
    for (const decide of [
      () => loop.permissions.allow('p-aaaaaaaaaa'),
      () => loop.permissions.allowAlways('p-aaaaaaaaaa'),
      () => loop.permissions.deny('p-aaaaaaaaaa', { reason: 'no' }),
    ]) {
      await expect(decide()).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(await loop.status()).toMatchObject({ ok: true });
  });

  it('without serve, the first call says how to start it', async () => {
    const nowhere = await connect({ socket: path.join(serve.dir, 'none.sock') });
    await expect(nowhere.standing.list()).rejects.toMatchObject({
      code: 'serve_not_running',
      message: expect.stringContaining('the-loop serve') as unknown,
    });
  });
});

describe('connect(): events()', () => {
  it('replays from since, filters, and resumes after serve drops the stream, with no gap and no repeat', async () => {
    const seen: LoopEvent[] = [];
    const stream = loop.events({ since: 0 })[Symbol.asyncIterator]();
    const first = await until(stream, seen, (event) => event.event === 'serve.started');
    expect(first.id).toBeGreaterThan(0);
    expect(first.data).toMatchObject({ event: 'serve.started', seq: first.id });

    await loop.standing.say('alpha', 'before the restart');
    const before = await until(stream, seen, (event) => event.event === 'standing.said');

    // serve stops (its streams end), then starts again: the iterator reconnects by itself.
    await serve.kill('SIGTERM');
    await serve.start();
    const after = await until(
      stream,
      seen,
      (event) => event.event === 'serve.started' && event.id > before.id,
    );
    await stream.return?.();

    const ids = seen.map((event) => event.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    // Everything the log holds between the two is seen: serve.stopped came from the replay.
    const logged = (await readEvents(path.join(serve.stateRoot, 'events.jsonl')))
      .map((event) => (event as { seq?: number }).seq)
      .filter((seq): seq is number => seq !== undefined && seq > before.id && seq <= after.id);
    expect(seen.filter((event) => event.id > before.id).map((event) => event.id)).toEqual(logged);
    expect(seen.some((event) => event.event === 'serve.stopped' && event.id > before.id)).toBe(
      true,
    );
  }, 60_000);

  it('filters by ref and event names, and a bad filter is a LoopError', async () => {
    const controller = new AbortController();
    const filtered = loop.events({
      ref: 'standing:alpha',
      events: ['standing.*'],
      signal: controller.signal,
    });
    const stream = filtered[Symbol.asyncIterator]();
    const seen: LoopEvent[] = [];
    const waiting = until(stream, seen, (event) => event.event === 'standing.said');
    // Delivered or queued, the say is recorded as standing.said.
    await loop.standing.say('alpha', 'filtered');
    const said = await waiting;
    expect(said.data).toMatchObject({ name: 'alpha' });
    expect(seen.every((event) => event.event.startsWith('standing.'))).toBe(true);
    controller.abort();
    expect(await stream.next()).toEqual({ done: true, value: undefined });

    const bad = loop.events({ events: ['NOT VALID'] })[Symbol.asyncIterator]();
    await expect(bad.next()).rejects.toMatchObject({ code: 'bad_request' });
  });
});
