import type { KV } from '@nats-io/kv';
import { LoopError } from '../errors.js';
import { presenceTtlMs } from './fleet-names.js';

/** An instance's entry in KV `LOOP_INSTANCES` (docs/design.md §21). */
export interface PresenceEntry {
  readonly name: string;
  readonly id: string;
  readonly host: string;
  readonly version: string;
  readonly startedAt: string;
  /** The standing sessions it runs. */
  readonly sessions: readonly string[];
}

export type JoinDecision =
  | { readonly kind: 'create' }
  | { readonly kind: 'take-over'; readonly revision: number }
  | { readonly kind: 'refuse'; readonly holder: PresenceEntry };

/**
 * Whether this instance may take its name: free, or held by this same state root (a restart takes
 * it over at once), or held by another live instance — refused.
 */
export function decideJoin(
  existing: { readonly entry: PresenceEntry; readonly revision: number } | undefined,
  id: string,
): JoinDecision {
  if (!existing) return { kind: 'create' };
  if (existing.entry.id === id) return { kind: 'take-over', revision: existing.revision };
  return { kind: 'refuse', holder: existing.entry };
}

export function parsePresence(text: string): PresenceEntry | undefined {
  try {
    const value = JSON.parse(text) as Partial<PresenceEntry>;
    if (typeof value.name !== 'string' || typeof value.id !== 'string') return undefined;
    return {
      name: value.name,
      id: value.id,
      host: String(value.host ?? ''),
      version: String(value.version ?? ''),
      startedAt: String(value.startedAt ?? ''),
      sessions: Array.isArray(value.sessions) ? value.sessions.map(String) : [],
    };
  } catch {
    return undefined;
  }
}

export async function readPresence(
  kv: KV,
  name: string,
): Promise<{ entry: PresenceEntry; revision: number } | undefined> {
  const found = await kv.get(name);
  if (!found || found.operation !== 'PUT') return undefined;
  // A bucket's TTL is its stream's max age: an entry older than it is on its way out.
  if (Date.now() - found.created.getTime() > presenceTtlMs) return undefined;
  const entry = parsePresence(found.string());
  return entry ? { entry, revision: found.revision } : undefined;
}

/** Takes this instance's name in the fleet, or throws `fleet_name_taken` naming the holder. */
export async function joinPresence(kv: KV, me: PresenceEntry): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const decision = decideJoin(await readPresence(kv, me.name), me.id);
    if (decision.kind === 'refuse') throw nameTaken(me.name, decision.holder);
    try {
      if (decision.kind === 'take-over')
        await kv.update(me.name, JSON.stringify(me), decision.revision);
      else await kv.create(me.name, JSON.stringify(me));
      return;
    } catch {
      // Another instance wrote the entry between our read and write: decide again.
    }
  }
  const holder = await readPresence(kv, me.name);
  throw nameTaken(me.name, holder?.entry);
}

function nameTaken(name: string, holder: PresenceEntry | undefined): LoopError {
  const who = holder ? `host ${holder.host}, instance id ${holder.id}` : 'another instance';
  return new LoopError(
    'fleet_name_taken',
    `the fleet already has a live instance named "${name}" (${who}): give this instance another ` +
      '`instance.name`, or stop that one first',
    { name, ...(holder ? { host: holder.host, holder: holder.id } : {}) },
  );
}
