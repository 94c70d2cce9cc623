import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { FleetConfig } from '../config/types.js';
import type { EventSink } from '../state/event-log.js';
import { LoopError, asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { connectFleetBus, type BusMessage, type FleetBus } from './connect-fleet-bus.js';
import { createFleetOutbox } from './create-fleet-outbox.js';
import {
  parseFleetEnvelope,
  type FleetEnvelope,
  type FleetTarget,
  type SlackFleetTarget,
} from './fleet-envelope.js';
import {
  bindingKey,
  githubConsumer,
  githubSubject,
  inboxConsumer,
  inboxSubject,
  presenceRefreshMs,
  sessionKey,
} from './fleet-names.js';
import { createPresenceView, type FleetInstanceView } from './presence-view.js';
import { joinPresence, type PresenceEntry } from './presence.js';
import { slackOwnerQuery, type OwnerLookup } from './slack-owner-query.js';
import { offlineNotice } from './offline-notice.js';

export type FleetState =
  | { readonly state: 'ok'; readonly instances: number }
  | { readonly state: 'down'; readonly since: string; readonly why: string };

export interface Fleet {
  readonly name: string;
  /** Joins; throws `fleet_name_taken` when a live instance holds the name. */
  start(): Promise<void>;
  /** Starts taking this instance's messages: once its surfaces are up. */
  open(): Promise<void>;
  stop(): Promise<void>;
  /** A Slack envelope this instance received: resolves once it is safe to acknowledge. */
  takeSlack(type: string, body: Record<string, unknown>): Promise<void>;
  /** A GitHub webhook delivery: resolves once every instance will see it. */
  takeGithub(id: string, event: string, body: Record<string, unknown>): Promise<void>;
  attachSlack(target: SlackFleetTarget): void;
  attachGithub(target: FleetTarget): void;
  threadBound(channel: string, threadTs: string, ref: string): Promise<void>;
  permissionOpened(id: string, ref: string): Promise<void>;
  permissionSettled(id: string): Promise<void>;
  /** Claims a standing session's name in the fleet, or throws `name_taken` naming the holder. */
  claimName(name: string): Promise<void>;
  releaseName(name: string): Promise<void>;
  state(): FleetState;
  list(): Promise<FleetInstanceView[]>;
}

export interface FleetOptions {
  readonly fleet: FleetConfig;
  readonly name: string;
  /** The state root's instance id. */
  readonly id: string;
  readonly version: string;
  readonly stateRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly events: EventSink;
  readonly logger: Logger;
  /** Whether this instance owns what `lookup` names, from its own records (NATS down). */
  readonly localOwns: (lookup: OwnerLookup) => Promise<boolean>;
  /** The standing sessions this instance runs, for its presence entry. */
  readonly sessions: () => Promise<string[]>;
  readonly now?: () => number;
}

const reconnectMs = 2_000;
const unboundRetryMs = 300;

/** Joins this instance to the fleet over NATS JetStream (docs/design.md §21). */
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
  // An owner never seen live by this instance is offline at least since this one joined.
  const startedAt = new Date(startedMs).toISOString();
  let bus: FleetBus | undefined;
  let down: { since: number; why: string } | undefined = { since: now(), why: 'not connected yet' };
  let slack: SlackFleetTarget | undefined;
  let github: FleetTarget | undefined;
  let stopped = false;
  let opened = false;
  let retry: NodeJS.Timeout | undefined;
  let refresh: NodeJS.Timeout | undefined;
  const stoppers: Array<() => Promise<void>> = [];
  const noticed = offlineNotice({ now });

  const entry = async (): Promise<PresenceEntry> => ({
    name: me,
    id: options.id,
    host: hostname(),
    version: options.version,
    startedAt,
    sessions: await options.sessions().catch(() => []),
  });

  const markDown = (why: string): void => {
    if (down) return;
    down = { since: now(), why };
    logger.warn({ event: 'fleet.down', why }, `the fleet is down: ${why}`);
  };

  const join = async (connected: FleetBus): Promise<void> => {
    await joinPresence(connected.kv('instances'), await entry());
    events.record('fleet.joined', { name: me });
    stoppers.push(await presence.watch(connected.kv('instances')));
    refresh = setInterval(() => void refreshPresence(), presenceRefreshMs);
    refresh.unref();
    void watchStatus(connected);
    bus = connected;
    down = undefined;
    if (opened) await consume(connected);
    await flushOutbox();
  };

  const consume = async (connected: FleetBus): Promise<void> => {
    stoppers.push(
      await connected.consume('in', inboxConsumer(me), inboxSubject(me), (message) =>
        handle(message, (envelope) => (envelope.source === 'slack' ? slack : github)),
      ),
    );
    stoppers.push(
      await connected.consume('gh', githubConsumer(me), githubSubject, (message) =>
        handle(message, () => github),
      ),
    );
  };

  const refreshPresence = async (): Promise<void> => {
    if (!bus) return;
    presence.expire();
    try {
      await bus.kv('instances').put(me, JSON.stringify(await entry()));
    } catch (error) {
      logger.warn({ event: 'fleet.presence_failed', err: error }, 'presence not refreshed');
    }
  };

  const watchStatus = async (connected: FleetBus): Promise<void> => {
    for await (const status of connected.connection.status()) {
      if (status.type === 'disconnect') markDown(`lost the NATS server ${status.server}`);
      if (status.type === 'reconnect') {
        down = undefined;
        events.record('fleet.reconnected', { server: status.server });
        void refreshPresence().then(flushOutbox);
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
      markDown(error instanceof Error ? error.message : String(error));
      if (down) down = { ...down, why: error instanceof Error ? error.message : String(error) };
      if (!stopped) retry = setTimeout(() => void connectOnce().catch(refusedLater), reconnectMs);
    }
  };

  const refusedLater = (error: unknown): void => {
    logger.error({ event: 'fleet.refused', err: error }, asLoopError(error).message);
    markDown(asLoopError(error).message);
  };

  const handle = async (
    message: BusMessage,
    targetOf: (envelope: FleetEnvelope) => FleetTarget | undefined,
  ): Promise<void> => {
    const envelope = parseFleetEnvelope(message.data);
    if (!envelope) {
      logger.warn({ event: 'fleet.bad_envelope' }, 'dropped a message that is no envelope');
      message.ack();
      return;
    }
    const target = targetOf(envelope);
    if (!target) {
      logger.warn(
        { event: 'fleet.no_surface', id: envelope.id, source: envelope.source },
        'dropped',
      );
      message.ack();
      return;
    }
    try {
      await target.deliver(envelope);
      message.ack();
    } catch (error) {
      logger.warn({ event: 'fleet.deliver_failed', id: envelope.id, err: error }, 'will retry');
      message.nak(1_000);
    }
  };

  const readOwner = async (bucket: 'bindings' | 'sessions' | 'permissions', key: string) => {
    const found = await bus?.kv(bucket).get(key);
    if (!found || found.operation !== 'PUT') return undefined;
    const value = found.json<{ instance?: unknown }>();
    return typeof value.instance === 'string' ? value.instance : undefined;
  };

  const ownerOf = async (lookup: OwnerLookup): Promise<string> => {
    switch (lookup.by) {
      case 'key': {
        const owner = await readOwner(lookup.bucket, lookup.key);
        if (owner || lookup.bucket !== 'bindings') return owner ?? me;
        // A reply can come right after its thread's announcement, before the owner has shared
        // the binding: one more look before the thread counts as unbound.
        await new Promise((resolve) => setTimeout(resolve, unboundRetryMs));
        return (await readOwner(lookup.bucket, lookup.key)) ?? me;
      }
      case 'permission':
        return (
          (await readOwner('permissions', lookup.key)) ??
          (lookup.thread ? await readOwner('bindings', lookup.thread) : undefined) ??
          me
        );
      case 'create':
        return lookup.instance ?? fleet.defaultInstance ?? me;
      case 'receiver':
        return me;
    }
  };

  const publish = async (to: string, envelope: FleetEnvelope): Promise<void> => {
    if (!bus) throw new LoopError('fleet_down', 'the fleet is down');
    const subject = envelope.source === 'github' ? githubSubject : inboxSubject(to);
    await bus.publish(subject, JSON.stringify({ ...envelope, to }), envelope.id);
    events.record('fleet.routed', { from: me, to, kind: envelope.kind });
  };

  const flushOutbox = async (): Promise<void> => {
    for (const { key, value } of await outbox.list()) {
      if (!bus || down) return;
      try {
        const to =
          value.source === 'github'
            ? '*'
            : await ownerOf(slackOwnerQuery(value.type, value.body).lookup);
        await publish(to, value);
        await outbox.remove(key);
      } catch (error) {
        logger.warn({ event: 'fleet.outbox_failed', err: error }, 'outbox not flushed yet');
        return;
      }
    }
  };

  const tellOffline = async (to: string, envelope: FleetEnvelope): Promise<void> => {
    if (to === me || presence.live(to) || !slack) return;
    const event = envelope.body['event'] as Record<string, unknown> | undefined;
    const channel = event?.['channel'];
    const threadTs = event?.['thread_ts'];
    if (typeof channel !== 'string' || typeof threadTs !== 'string') return;
    const text = noticed.once(
      to,
      bindingKey(channel, threadTs),
      presence.lastSeen(to) ?? startedMs,
    );
    if (text) await slack.notice(channel, threadTs, text);
  };

  return {
    name: me,
    async start() {
      await connectOnce();
    },
    async open() {
      opened = true;
      if (bus) await consume(bus);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(refresh);
      const connected = bus;
      bus = undefined;
      for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => undefined);
      if (!connected) return;
      // A graceful stop frees the name at once; a crash leaves it to the TTL.
      await connected
        .kv('instances')
        .delete(me)
        .catch(() => undefined);
      events.record('fleet.left', { name: me });
      await connected.close();
    },
    async takeSlack(type, body) {
      const query = slackOwnerQuery(type, body);
      const envelope: FleetEnvelope = {
        id: query.id ?? randomUUID(),
        source: 'slack',
        type,
        kind: query.kind,
        body: query.body,
        from: me,
        receivedAt: now(),
      };
      if (bus && !down) {
        try {
          const to = await ownerOf(query.lookup);
          await publish(to, envelope);
          void tellOffline(to, envelope).catch((error: unknown) => {
            logger.warn({ event: 'fleet.notice_failed', err: error }, 'offline notice not sent');
          });
          return;
        } catch (error) {
          markDown(error instanceof Error ? error.message : String(error));
        }
      }
      if (slack && (await options.localOwns(query.lookup))) await slack.deliver(envelope);
      else await outbox.put(envelope);
    },
    async takeGithub(id, type, body) {
      const envelope: FleetEnvelope = {
        id,
        source: 'github',
        type,
        kind: 'github',
        body,
        from: me,
        receivedAt: now(),
      };
      if (bus && !down) {
        try {
          await publish('*', envelope);
          return;
        } catch (error) {
          markDown(error instanceof Error ? error.message : String(error));
        }
      }
      // Handled here now, and for the others once NATS is back; the delivery id dedupes ours.
      await outbox.put(envelope);
      if (github) await github.deliver(envelope);
    },
    attachSlack(target) {
      slack = target;
    },
    attachGithub(target) {
      github = target;
    },
    async threadBound(channel, threadTs, ref) {
      await bus
        ?.kv('bindings')
        .put(bindingKey(channel, threadTs), JSON.stringify({ instance: me, ref }));
    },
    async permissionOpened(id, ref) {
      await bus?.kv('permissions').put(id, JSON.stringify({ instance: me, ref }));
    },
    async permissionSettled(id) {
      await bus?.kv('permissions').delete(id);
    },
    async claimName(name) {
      if (!bus || down) {
        throw new LoopError(
          'fleet_down',
          `cannot claim "${name}" in the fleet while its NATS server is unreachable: try again when \`the-loop fleet\` shows it up`,
        );
      }
      const kv = bus.kv('sessions');
      try {
        await kv.create(sessionKey(name), JSON.stringify({ instance: me }));
        return;
      } catch {
        const holder = await readOwner('sessions', sessionKey(name));
        if (holder === me || holder === undefined) {
          await kv.put(sessionKey(name), JSON.stringify({ instance: me }));
          return;
        }
        throw new LoopError(
          'name_taken',
          `"${name}" is already a session on instance ${holder} of the fleet: pick another name, or delete it there`,
          { name, instance: holder },
        );
      }
    },
    async releaseName(name) {
      if (!bus) return;
      if ((await readOwner('sessions', sessionKey(name))) === me) {
        await bus.kv('sessions').delete(sessionKey(name));
      }
    },
    state() {
      if (down) return { state: 'down', since: new Date(down.since).toISOString(), why: down.why };
      return { state: 'ok', instances: presence.liveCount() };
    },
    async list() {
      return presence.list(bus);
    },
  };
}
