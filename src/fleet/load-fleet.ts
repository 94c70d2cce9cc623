import type { Fleet, FleetOptions } from './create-fleet.js';

/**
 * The fleet when the config has a `fleet` block; NATS is loaded only then (docs/design.md §21),
 * so one machine alone pays nothing for it.
 */
export async function loadFleet(
  options: Omit<FleetOptions, 'fleet'> & { readonly fleet: FleetOptions['fleet'] | undefined },
): Promise<Fleet | undefined> {
  const { fleet } = options;
  if (!fleet) return undefined;
  const { createFleet } = await import('./create-fleet.js');
  return createFleet({ ...options, fleet });
}
