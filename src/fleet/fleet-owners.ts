import type { FleetLink } from './fleet-link.js';
import type { OwnerLookup } from './slack-owner-query.js';

const unboundRetryMs = 300;

/** Who owns a key in one of the fleet's KV buckets, and so who an envelope goes to (docs/design.md §21). */
export function createFleetOwners(link: FleetLink, defaultInstance: string | undefined) {
  const me = link.me;
  const readOwner = async (
    bucket: 'bindings' | 'sessions' | 'permissions',
    key: string,
  ): Promise<string | undefined> => {
    const found = await link.bus()?.kv(bucket).get(key);
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
        return lookup.instance ?? defaultInstance ?? me;
      case 'receiver':
        return me;
    }
  };
  return { readOwner, ownerOf };
}

export type FleetOwners = ReturnType<typeof createFleetOwners>;
