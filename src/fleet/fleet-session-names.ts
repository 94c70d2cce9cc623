import { LoopError } from '../errors.js';
import { sessionKey } from './fleet-names.js';
import type { FleetLink } from './fleet-link.js';
import type { FleetOwners } from './fleet-owners.js';

/**
 * Standing session names are fleet-wide (docs/design.md §21): `standing create` claims the name in
 * KV `LOOP_SESSIONS` (create only if absent), delete releases it.
 */
export function createSessionNames(link: FleetLink, owners: FleetOwners) {
  const me = link.me;
  return {
    /** Claims a standing session's name in the fleet, or throws `name_taken` naming the holder. */
    async claimName(name: string): Promise<void> {
      const bus = link.up();
      if (!bus) {
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
        const holder = await owners.readOwner('sessions', sessionKey(name));
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
    async releaseName(name: string): Promise<void> {
      const bus = link.bus();
      if (!bus) return;
      if ((await owners.readOwner('sessions', sessionKey(name))) === me) {
        await bus.kv('sessions').delete(sessionKey(name));
      }
    },
  };
}
