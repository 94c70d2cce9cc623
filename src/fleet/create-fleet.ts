import { hostname } from 'node:os';
import path from 'node:path';
import { asLoopError } from '../errors.js';
import { connectFleetBus, type FleetBus } from './connect-fleet-bus.js';
import { createFleetOutbox } from './create-fleet-outbox.js';
import { handleFleetMessage } from './fleet-consumer.js';
import type { FleetTarget, SlackFleetTarget } from './fleet-envelope.js';
import { createFleetLink } from './fleet-link.js';
import {
  bindingKey,
  githubConsumer,
  githubSubject,
  instanceConsumer,
  instanceSubject,
  presenceRefreshMs,
} from './fleet-names.js';
import { createFleetOwners } from './fleet-owners.js';
import { createFleetRouter } from './fleet-router.js';
import { createSessionNames } from './fleet-session-names.js';
import type { Fleet, FleetOptions } from './fleet-types.js';
import { createLeases } from './poll-lease.js';
import { createPresenceView } from './presence-view.js';
import { testHold } from '../test-hold.js';
import { joinPresence, type PresenceEntry } from './presence.js';

export type { Fleet, FleetOptions, FleetState } from './fleet-types.js';

const reconnectMs = 2_000;

/**
 * Joins this instance to the fleet over NATS JetStream (docs/design.md §21): connects (and keeps
 * reconnecting), registers its presence, consumes `inst-<name>` and `gh-<name>`, and wires the
 * router, the owners, the names and the leases to one shared connection state.
 */
export function createFleet(options: FleetOptions): Fleet {
  const { fleet, name: me, events } = options;
  const logger = options.logger.child({ part: 'fleet' });
  const now = options.now ?? Date.now;
  const outbox = createFleetOutbox({
    dir: path.join(options.stateRoot, 'fleet', 'outbox'),
    logger,
  });
  const presence = createPresenceView({ me, events, now });
  const startedMs = now();
  const startedAt = new Date(startedMs).toISOString();
  const link = createFleetLink({
    me,
    now,
    onDown: (why) => logger.warn({ event: 'fleet.down', why }, `the fleet is down: ${why}`),
  });
  let slack: SlackFleetTarget | undefined;
  let github: FleetTarget | undefined;
  let stopped = false;
  let opened = false;
  let retry: NodeJS.Timeout | undefined;
  let refresh: NodeJS.Timeout | undefined;
  const stoppers: Array<() => Promise<void>> = [];
  const hold = testHold(options.env);
  const owners = createFleetOwners(link, fleet.defaultInstance);
  const names = createSessionNames(link, owners);
  const leases = createLeases({ kv: () => link.up()?.kv('locks'), me, logger, now });
  const router = createFleetRouter({
    ...{ link, owners, outbox, presence, events, logger, now, startedMs },
    localOwns: options.localOwns,
    slack: () => slack,
    github: () => github,
  });

  const entry = async (): Promise<PresenceEntry> => ({
    name: me,
    id: options.id,
    host: hostname(),
    version: options.version,
    startedAt,
    sessions: await options.sessions().catch(() => []),
  });

  const join = async (connected: FleetBus): Promise<void> => {
    const mine = await entry();
    await joinPresence(connected.kv('instances'), mine);
    presence.seen(mine, now());
    events.record('fleet.joined', { name: me });
    stoppers.push(await presence.watch(connected.kv('instances')));
    refresh = setInterval(() => void refreshPresence(), presenceRefreshMs);
    refresh.unref();
    void watchStatus(connected);
    link.connected(connected);
    if (opened) await consume(connected);
    await router.flushOutbox();
  };

  const consume = async (connected: FleetBus): Promise<void> => {
    stoppers.push(
      await connected.consume('in', instanceConsumer(me), instanceSubject(me), (message) =>
        handleFleetMessage(
          message,
          (envelope) => (envelope.source === 'slack' ? slack : github),
          logger,
          hold,
        ),
      ),
    );
    stoppers.push(
      await connected.consume('gh', githubConsumer(me), githubSubject, (message) =>
        handleFleetMessage(message, () => github, logger, hold),
      ),
    );
  };

  const refreshPresence = async (): Promise<void> => {
    const bus = link.bus();
    if (!bus) return;
    presence.expire();
    try {
      await bus.kv('instances').put(me, JSON.stringify(await entry()));
      await leases.renewAll();
    } catch (error) {
      logger.warn({ event: 'fleet.presence_failed', err: error }, 'presence not refreshed');
    }
  };

  const watchStatus = async (connected: FleetBus): Promise<void> => {
    for await (const status of connected.connection.status()) {
      if (status.type === 'disconnect') link.markDown(`lost the NATS server ${status.server}`);
      if (status.type === 'reconnect') {
        link.reconnected();
        events.record('fleet.reconnected', { server: status.server });
        void refreshPresence().then(router.flushOutbox);
      }
    }
  };

  const connectOnce = async (): Promise<void> => {
    try {
      const connected = await connectFleetBus({ fleet, env: options.env, name: me, logger });
      try {
        await join(connected);
      } catch (error) {
        await connected.close();
        throw error;
      }
    } catch (error) {
      if (asLoopError(error).code === 'fleet_name_taken') throw error;
      const why = error instanceof Error ? error.message : String(error);
      link.markDown(why);
      link.stillDown(why);
      if (!stopped) retry = setTimeout(() => void connectOnce().catch(refusedLater), reconnectMs);
    }
  };

  const refusedLater = (error: unknown): void => {
    logger.error({ event: 'fleet.refused', err: error }, asLoopError(error).message);
    link.markDown(asLoopError(error).message);
  };

  return {
    name: me,
    async start() {
      await connectOnce();
    },
    async open() {
      opened = true;
      const bus = link.bus();
      if (bus) await consume(bus);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(refresh);
      const connected = link.bus();
      for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => undefined);
      // A graceful stop frees the name and the leases at once; a crash leaves them to the TTL.
      await leases.releaseAll();
      link.connected(undefined);
      if (!connected) return;
      await connected
        .kv('instances')
        .delete(me)
        .catch(() => undefined);
      events.record('fleet.left', { name: me });
      await connected.close();
    },
    takeSlack: router.takeSlack,
    takeGithub: router.takeGithub,
    attachSlack(target) {
      slack = target;
    },
    attachGithub(target) {
      github = target;
    },
    pollLease: (repo) => leases.hold(`poll.${repo.toLowerCase()}`),
    async threadBound(channel, threadTs, ref) {
      await link
        .bus()
        ?.kv('bindings')
        .put(bindingKey(channel, threadTs), JSON.stringify({ instance: me, ref }));
    },
    async permissionOpened(id, ref) {
      await link
        .bus()
        ?.kv('permissions')
        .put(id, JSON.stringify({ instance: me, ref }));
    },
    async permissionSettled(id) {
      await link.bus()?.kv('permissions').delete(id);
    },
    claimName: names.claimName,
    releaseName: names.releaseName,
    state() {
      const down = link.down();
      if (down) return { state: 'down', since: new Date(down.since).toISOString(), why: down.why };
      return { state: 'ok', instances: presence.liveCount() };
    },
    async list() {
      return presence.list(link.bus());
    },
  };
}
