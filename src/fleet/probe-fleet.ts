import { JetStreamApiCodes, JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { FleetConfig } from '../config/types.js';
import { connectNats } from './connect-fleet-bus.js';
import { fleetBuckets } from './fleet-names.js';
import { readPresence } from './presence.js';

/** What `the-loop doctor` learns of the fleet (docs/design.md §16, §21). */
export type FleetProbe =
  | { readonly kind: 'reachable'; readonly instances: number; readonly bucket: boolean }
  | { readonly kind: 'unreachable'; readonly error: string };

/**
 * Connects to `fleet.nats` once, without reconnecting, and counts the live entries of KV
 * `LOOP_INSTANCES`. Reads only: a missing bucket (no instance ever joined) is 0 instances, never
 * created here. The whole probe gives up after `timeoutMs`; the connection is always closed.
 */
export async function probeFleet(options: {
  readonly fleet: Pick<FleetConfig, 'nats'>;
  readonly env: NodeJS.ProcessEnv;
  readonly name: string;
  readonly timeoutMs: number;
}): Promise<FleetProbe> {
  const { timeoutMs } = options;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let close: (() => Promise<void>) | undefined;
  let settled = false;
  const probe = async (): Promise<FleetProbe> => {
    const connection = await connectNats({ ...options, reconnect: false });
    close = () => connection.close();
    // Connected just after the timeout: the finally below has run already.
    if (settled) await close();
    const jsm = await jetstreamManager(connection, { timeout: timeoutMs });
    const stream = `KV_${fleetBuckets.instances}`;
    const known = await jsm.streams.info(stream).then(
      () => true,
      (error: unknown) => {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)
          return false;
        throw error;
      },
    );
    if (!known) return { kind: 'reachable', instances: 0, bucket: false };
    const kv = await new Kvm(connection).open(fleetBuckets.instances);
    let instances = 0;
    for await (const key of await kv.keys()) {
      if (await readPresence(kv, key)) instances += 1;
    }
    return { kind: 'reachable', instances, bucket: true };
  };
  try {
    return await Promise.race([probe(), timedOut]);
  } catch (error) {
    return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) };
  } finally {
    settled = true;
    clearTimeout(timer);
    await close?.().catch(() => undefined);
  }
}
