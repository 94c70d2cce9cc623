import type { FleetBus } from './connect-fleet-bus.js';

/**
 * The connection state the fleet's parts share: the bus while connected, and since when and why
 * the fleet is down (docs/design.md §21: status and doctor say so).
 */
export interface FleetLink {
  readonly me: string;
  bus(): FleetBus | undefined;
  /** The bus when connected and not known to be down. */
  up(): FleetBus | undefined;
  down(): { readonly since: number; readonly why: string } | undefined;
  markDown(why: string): void;
}

export function createFleetLink(options: {
  readonly me: string;
  readonly now: () => number;
  readonly onDown: (why: string) => void;
}) {
  let bus: FleetBus | undefined;
  let down: { since: number; why: string } | undefined = {
    since: options.now(),
    why: 'not connected yet',
  };
  return {
    me: options.me,
    bus: () => bus,
    up: () => (down ? undefined : bus),
    down: () => down,
    markDown(why: string) {
      if (down) return;
      down = { since: options.now(), why };
      options.onDown(why);
    },
    /** A failed first connection keeps the outage's start and says what went wrong last. */
    stillDown(why: string) {
      down = { since: down?.since ?? options.now(), why };
    },
    connected(next: FleetBus | undefined) {
      bus = next;
      if (next) down = undefined;
    },
    reconnected() {
      down = undefined;
    },
  };
}
