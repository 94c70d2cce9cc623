import { readFile } from 'node:fs/promises';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  StorageType,
  type JetStreamClient,
  type JsMsg,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import {
  connect,
  credsAuthenticator,
  tokenAuthenticator,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { FleetConfig } from '../config/types.js';
import type { Logger } from '../log/create-logger.js';
import { fleetBuckets, fleetStreams, presenceTtlMs, type FleetBucket } from './fleet-names.js';
import { parseRetention } from './parse-retention.js';

/** A message taken from a durable consumer: acked only once it is safe (docs/design.md §21). */
export interface BusMessage {
  readonly data: Uint8Array;
  readonly redelivered: boolean;
  ack(): void;
  /** Asks for it again after `delayMs`. */
  nak(delayMs?: number): void;
}

/** The parts of NATS the fleet uses, connected and with every stream and bucket in place. */
export interface FleetBus {
  readonly connection: NatsConnection;
  kv(bucket: FleetBucket): KV;
  /** Resolves with JetStream's PubAck; `msgId` de-duplicates within the stream's window. */
  publish(subject: string, data: string, msgId: string): Promise<{ duplicate: boolean }>;
  /** Runs `handle` for each message of a durable consumer, one at a time, in order. */
  consume(
    stream: 'in' | 'gh',
    durable: string,
    subject: string,
    handle: (message: BusMessage) => Promise<void>,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const nanos = (ms: number): number => ms * 1_000_000;

/** How NATS wants us to prove who we are: a token, a creds file, or nothing. */
export async function natsAuth(
  env: NodeJS.ProcessEnv,
): Promise<{ authenticator?: ReturnType<typeof tokenAuthenticator> }> {
  const creds = env['THE_LOOP_NATS_CREDS'];
  if (creds) return { authenticator: credsAuthenticator(await readFile(creds)) };
  const token = env['THE_LOOP_NATS_TOKEN'];
  if (token) return { authenticator: tokenAuthenticator(token) };
  return {};
}

/**
 * The one way the-loop connects to `fleet.nats` (serve's fleet and `doctor`): every server of the
 * cluster, its name, and the token or creds of the environment. `reconnect: false` gives up for
 * good once the connection drops (a one-off probe).
 */
export async function connectNats(options: {
  readonly fleet: Pick<FleetConfig, 'nats'>;
  readonly env: NodeJS.ProcessEnv;
  readonly name: string;
  readonly timeoutMs?: number;
  readonly reconnect: boolean;
}): Promise<NatsConnection> {
  return connect({
    servers: options.fleet.nats.split(','),
    name: `the-loop ${options.name}`,
    timeout: options.timeoutMs ?? 2_000,
    maxReconnectAttempts: options.reconnect ? -1 : 0,
    reconnectTimeWait: 500,
    ...(await natsAuth(options.env)),
  });
}

/**
 * Connects once (throws when the server cannot be reached within `timeoutMs`), then keeps
 * reconnecting for ever; makes the file-backed streams and buckets of §21 when missing.
 */
export async function connectFleetBus(options: {
  readonly fleet: FleetConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly name: string;
  readonly logger: Logger;
  readonly timeoutMs?: number;
}): Promise<FleetBus> {
  const connection = await connectNats({ ...options, reconnect: true });
  try {
    const maxAge = nanos(parseRetention(options.fleet.retention));
    const jsm = await jetstreamManager(connection);
    for (const stream of Object.values(fleetStreams)) {
      const config = { subjects: [...stream.subjects], max_age: maxAge };
      const known = await jsm.streams.info(stream.name).catch(() => undefined);
      if (known) await jsm.streams.update(stream.name, config);
      else await jsm.streams.add({ name: stream.name, storage: StorageType.File, ...config });
    }
    const kvm = new Kvm(connection);
    const buckets = new Map<FleetBucket, KV>();
    for (const [key, bucket] of Object.entries(fleetBuckets) as [FleetBucket, string][]) {
      const short = key === 'instances' || key === 'locks';
      const ttl = short ? presenceTtlMs : parseRetention(options.fleet.retention);
      // Bindings, names and permission ids outlive any message: they keep no max age.
      const opts = short ? { ttl, storage: StorageType.File } : { storage: StorageType.File };
      buckets.set(key, await kvm.create(bucket, opts));
    }
    const js: JetStreamClient = jetstream(connection);
    return {
      connection,
      kv(bucket) {
        const kv = buckets.get(bucket);
        if (!kv) throw new Error(`no bucket ${bucket}`);
        return kv;
      },
      async publish(subject, data, msgId) {
        const ack = await js.publish(subject, data, { msgID: msgId, timeout: 2_000 });
        return { duplicate: ack.duplicate };
      },
      async consume(stream, durable, subject, handle) {
        const streamName = fleetStreams[stream].name;
        await jsm.consumers.add(streamName, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: subject,
          ack_wait: nanos(30_000),
        });
        const consumer = await js.consumers.get(streamName, durable);
        const messages = await consumer.consume({ max_messages: 64 });
        const done = (async () => {
          for await (const message of messages) await handle(wrap(message));
        })().catch((error: unknown) => {
          options.logger.warn({ event: 'fleet.consume_failed', durable, err: error }, 'stopped');
        });
        return async () => {
          await messages.close();
          await done;
        };
      },
      async close() {
        await connection.drain().catch(() => connection.close());
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

function wrap(message: JsMsg): BusMessage {
  return {
    data: message.data,
    redelivered: message.redelivered,
    ack: () => message.ack(),
    nak: (delayMs) => message.nak(delayMs),
  };
}
