import type { KV } from '@nats-io/kv';
import type { Logger } from '../log/create-logger.js';
import { lockKey, presenceTtlMs } from './fleet-names.js';

/** A lease in KV `LOOP_LOCKS` as read: who holds it, its revision, how long since it was written. */
export interface LeaseSeen {
  readonly holder: string | undefined;
  readonly revision: number;
  readonly ageMs: number;
}

export type LeaseStep =
  | { readonly kind: 'create' }
  | { readonly kind: 'update'; readonly revision: number; readonly fresh: boolean }
  | { readonly kind: 'elsewhere'; readonly holder: string };

/**
 * What this instance does with a lease (docs/design.md §21): take it when nobody holds it, renew
 * its own, take over one that lapsed (not written within the TTL), leave a live one alone.
 * `fresh` says the lease changes hands (a poller catches up on what the last holder may have missed).
 */
export function decideLease(
  seen: LeaseSeen | undefined,
  me: string,
  ttlMs: number = presenceTtlMs,
): LeaseStep {
  if (!seen) return { kind: 'create' };
  if (seen.holder === me) return { kind: 'update', revision: seen.revision, fresh: false };
  if (seen.holder === undefined || seen.ageMs > ttlMs)
    return { kind: 'update', revision: seen.revision, fresh: true };
  return { kind: 'elsewhere', holder: seen.holder };
}

/** `held` (kept), `taken` (just came to this instance), or `elsewhere`. */
export type LeaseHold = 'held' | 'taken' | 'elsewhere';

/**
 * The leases one instance holds, e.g. "polls octo/repo": create-if-absent with the bucket's TTL,
 * renewed on every `hold` and by `renewAll` (with presence), taken over once lapsed, deleted on a
 * graceful stop. While NATS is unreachable an instance keeps what it held last.
 */
export function createLeases(options: {
  readonly kv: () => KV | undefined;
  readonly me: string;
  readonly logger: Logger;
  readonly now?: () => number;
}) {
  const { me, logger } = options;
  const now = options.now ?? Date.now;
  const held = new Set<string>();

  const read = async (kv: KV, key: string): Promise<LeaseSeen | undefined> => {
    const found = await kv.get(key);
    if (!found) return undefined;
    if (found.operation !== 'PUT') return { holder: undefined, revision: found.revision, ageMs: 0 };
    let holder: string | undefined;
    try {
      const value = found.json<{ instance?: unknown }>();
      holder = typeof value.instance === 'string' ? value.instance : undefined;
    } catch {
      holder = undefined;
    }
    return { holder, revision: found.revision, ageMs: now() - found.created.getTime() };
  };

  const hold = async (what: string): Promise<LeaseHold> => {
    const key = lockKey(what);
    const kv = options.kv();
    if (!kv) return held.has(key) ? 'held' : 'elsewhere';
    const value = JSON.stringify({ instance: me, at: new Date(now()).toISOString() });
    try {
      const step = decideLease(await read(kv, key), me);
      if (step.kind === 'elsewhere') {
        held.delete(key);
        return 'elsewhere';
      }
      if (step.kind === 'create') await kv.create(key, value);
      else await kv.update(key, value, step.revision);
      const fresh = step.kind === 'create' || step.fresh || !held.has(key);
      held.add(key);
      if (fresh) logger.info({ event: 'fleet.lease_taken', lease: key }, `holds ${key}`);
      return fresh ? 'taken' : 'held';
    } catch (error) {
      // Another instance wrote it between our read and write, or NATS is away: keep what we had.
      logger.debug({ event: 'fleet.lease_contended', lease: key, err: error }, 'lease not taken');
      return held.has(key) ? 'held' : 'elsewhere';
    }
  };

  return {
    hold,
    /** Renews every lease held (called with the presence refresh, well within the TTL). */
    async renewAll(): Promise<void> {
      for (const key of [...held]) await hold(key);
    },
    /** A graceful stop frees each lease at once; a crash leaves them to the TTL. */
    async releaseAll(): Promise<void> {
      const kv = options.kv();
      for (const key of held) {
        const seen = kv ? await read(kv, key).catch(() => undefined) : undefined;
        if (kv && seen?.holder === me) await kv.delete(key).catch(() => undefined);
      }
      held.clear();
    },
  };
}

export type Leases = ReturnType<typeof createLeases>;
