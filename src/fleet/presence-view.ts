import type { KV } from '@nats-io/kv';
import type { EventSink } from '../state/event-log.js';
import type { FleetBus } from './connect-fleet-bus.js';
import { presenceTtlMs } from './fleet-names.js';
import { parsePresence, type PresenceEntry } from './presence.js';

/** One row of `the-loop fleet` and `GET /api/v1/fleet` (docs/design.md §21). */
export interface FleetInstanceView {
  readonly name: string;
  readonly id: string;
  readonly host: string;
  readonly version: string;
  readonly startedAt: string;
  readonly sessions: readonly string[];
  readonly live: boolean;
}

/**
 * What this instance knows of the others, kept current by watching KV `LOOP_INSTANCES`: who is
 * live, since when one is gone (for the offline notice), and `fleet.joined` / `fleet.left`.
 */
export function createPresenceView(options: {
  readonly me: string;
  readonly events: EventSink;
  readonly now: () => number;
}) {
  const { me, events, now } = options;
  const live = new Map<string, { entry: PresenceEntry; seenAt: number }>();
  const gone = new Map<string, number>();

  const leave = (name: string, at: number): void => {
    if (!live.delete(name)) return;
    gone.set(name, at);
    if (name !== me) events.record('fleet.left', { name });
  };

  return {
    async watch(kv: KV): Promise<() => Promise<void>> {
      const watcher = await kv.watch();
      const done = (async () => {
        for await (const change of watcher) {
          const at = change.created.getTime();
          if (change.operation !== 'PUT') {
            leave(change.key, at);
            continue;
          }
          const entry = parsePresence(change.string());
          if (!entry || now() - at > presenceTtlMs) continue;
          const known = live.has(change.key);
          live.set(change.key, { entry, seenAt: at });
          gone.delete(change.key);
          if (!known && change.isUpdate && change.key !== me) {
            events.record('fleet.joined', { name: change.key });
          }
        }
      })();
      return async () => {
        watcher.stop();
        await done.catch(() => undefined);
      };
    },
    /**
     * Takes this instance's own entry as soon as it is written: the watch hears it a moment
     * later, and `the-loop fleet` run right after a start must already list the instance.
     */
    seen(entry: PresenceEntry, at: number): void {
      live.set(entry.name, { entry, seenAt: at });
      gone.delete(entry.name);
    },
    /** Forgets instances that stopped refreshing (a crash: no delete, only the TTL). */
    expire(): void {
      for (const [name, { seenAt }] of live) {
        if (now() - seenAt > presenceTtlMs) leave(name, seenAt);
      }
    },
    live(name: string): boolean {
      const seen = live.get(name);
      return seen !== undefined && now() - seen.seenAt <= presenceTtlMs;
    },
    /** When the instance was last known to be up, if ever. */
    lastSeen(name: string): number | undefined {
      return live.get(name)?.seenAt ?? gone.get(name);
    },
    liveCount(): number {
      return [...live.values()].filter(({ seenAt }) => now() - seenAt <= presenceTtlMs).length;
    },
    /** Live instances, then those that still hold a session name or a binding. */
    async list(bus: FleetBus | undefined): Promise<FleetInstanceView[]> {
      const rows: FleetInstanceView[] = [...live.values()]
        .filter(({ seenAt }) => now() - seenAt <= presenceTtlMs)
        .map(({ entry }) => ({ ...entry, live: true }));
      if (!bus) return rows;
      const holders = new Map<string, Set<string>>();
      for (const bucket of ['sessions', 'bindings'] as const) {
        const kv = bus.kv(bucket);
        for await (const key of await kv.keys()) {
          const found = await kv.get(key);
          if (!found || found.operation !== 'PUT') continue;
          const { instance } = found.json<{ instance?: unknown }>();
          if (typeof instance !== 'string' || rows.some((row) => row.name === instance)) continue;
          const names = holders.get(instance) ?? new Set<string>();
          if (bucket === 'sessions') names.add(key.replace(/^standing\./, ''));
          holders.set(instance, names);
        }
      }
      for (const [name, sessions] of holders) {
        rows.push({
          name,
          id: '',
          host: '',
          version: '',
          startedAt: '',
          sessions: [...sessions],
          live: false,
        });
      }
      return rows.sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}
