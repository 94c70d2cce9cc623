import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, type Fleet } from '../../src/fleet/create-fleet.js';
import type { FleetEnvelope } from '../../src/fleet/fleet-envelope.js';
import { captureLogger } from '../helpers/capture-logger.js';
import { createMemoryEventLog } from '../helpers/memory-event-log.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();

const title = `the fleet over a real nats-server${unavailable ? ` (skipped: ${unavailable})` : ''}`;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer;
  const fleets: Fleet[] = [];
  const roots: string[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.dispose();
  });
  afterEach(async () => {
    for (const fleet of fleets.splice(0)) await fleet.stop();
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  const member = async (name: string, id = `id-${name}`) => {
    const root = await mkdtemp(path.join(tmpdir(), 'loop-fleet-'));
    roots.push(root);
    const events = createMemoryEventLog();
    const fleet = createFleet({
      fleet: { nats: nats.url, retention: '1h' },
      name,
      id,
      version: '0.1.0',
      stateRoot: root,
      env: {},
      events,
      logger: captureLogger().logger,
      localOwns: async () => true,
      sessions: async () => ['sup'],
    });
    fleets.push(fleet);
    return { fleet, events };
  };

  it('joins, lists itself live, and says ok in status', async () => {
    const { fleet, events } = await member('alpha');
    await fleet.start();
    expect(fleet.state()).toMatchObject({ state: 'ok' });
    expect(events.events.map((event) => event.event)).toContain('fleet.joined');
    const rows = await fleet.list();
    expect(rows).toContainEqual(
      expect.objectContaining({ name: 'alpha', id: 'id-alpha', live: true, sessions: ['sup'] }),
    );
  });

  it('refuses a second live instance with the same name, naming the host and holder id', async () => {
    const { fleet } = await member('beta');
    await fleet.start();
    const { fleet: twin } = await member('beta', 'id-other');
    await expect(twin.start()).rejects.toMatchObject({
      code: 'fleet_name_taken',
      message: expect.stringContaining('instance id id-beta'),
    });
  });

  it('lets the same instance id take its entry over at once (a restart)', async () => {
    const { fleet } = await member('gamma');
    await fleet.start();
    const { fleet: again } = await member('gamma');
    await expect(again.start()).resolves.toBeUndefined();
  });

  it('frees the name at a graceful stop', async () => {
    const { fleet } = await member('delta');
    await fleet.start();
    await fleet.stop();
    fleets.splice(fleets.indexOf(fleet), 1);
    const { fleet: other } = await member('delta', 'id-new');
    await expect(other.start()).resolves.toBeUndefined();
  });

  it('gives a standing name to one instance only, until it releases it', async () => {
    const { fleet: one } = await member('one');
    const { fleet: two } = await member('two');
    await one.start();
    await two.start();
    await one.claimName('sup');
    await expect(two.claimName('sup')).rejects.toMatchObject({
      code: 'name_taken',
      message: expect.stringContaining('instance one'),
    });
    await one.claimName('sup');
    await one.releaseName('sup');
    await expect(two.claimName('sup')).resolves.toBeUndefined();
    await two.releaseName('sup');
  });

  it('routes a thread reply to the instance that bound the thread, once per event id', async () => {
    const { fleet: owner } = await member('owner');
    const { fleet: receiver, events } = await member('receiver');
    const got: FleetEnvelope[] = [];
    let arrived: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (arrived = resolve));
    owner.attachSlack({
      deliver: async (envelope) => {
        got.push(envelope);
        if (got.length === 2) arrived();
      },
      notice: async () => undefined,
    });
    receiver.attachSlack({ deliver: async () => undefined, notice: async () => undefined });
    await owner.start();
    await receiver.start();
    await owner.open();
    await receiver.open();
    await owner.threadBound('C1', '100.1', 'standing:sup');
    const body = (eventId: string) => ({
      type: 'event_callback',
      event_id: eventId,
      event: { type: 'message', channel: 'C1', thread_ts: '100.1', ts: '100.2', text: 'hi' },
    });
    await receiver.takeSlack('events_api', body('Ev1'));
    await receiver.takeSlack('events_api', body('Ev1'));
    await receiver.takeSlack('events_api', body('Ev2'));
    await twice;
    expect(got.map((envelope) => envelope.id)).toEqual(['Ev1', 'Ev2']);
    expect(got[0]).toMatchObject({ from: 'receiver', kind: 'message' });
    expect(events.events).toContainEqual(
      expect.objectContaining({
        event: 'fleet.routed',
        from: 'receiver',
        to: 'owner',
        kind: 'message',
      }),
    );
  });
});
