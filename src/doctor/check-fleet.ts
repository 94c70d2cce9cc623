import { fail, ok, type DoctorCheck } from './doctor-check.js';

/** What doctor learned of the fleet; `off` without a `fleet` block (docs/design.md §21). */
export type FleetFacts =
  | { readonly kind: 'off' }
  | {
      readonly kind: 'reachable';
      readonly nats: string;
      readonly instances: number;
      /** False when KV `LOOP_INSTANCES` does not exist yet: no instance ever joined. */
      readonly bucket: boolean;
    }
  | { readonly kind: 'unreachable'; readonly nats: string; readonly error: string };

/**
 * The `fleet` line, worded like status's (`ok (3 instances)` / `down: <why>`). Alone is a fine way
 * to run, so no fleet block is `ok`, not a warning.
 */
export function checkFleet(facts: FleetFacts): DoctorCheck {
  if (facts.kind === 'off') {
    return ok('fleet', 'off: this instance runs alone (the config has no fleet block)');
  }
  if (facts.kind === 'unreachable') {
    return fail(
      'fleet',
      `down: cannot reach NATS at ${facts.nats}: ${facts.error}`,
      'start nats-server with JetStream (nats-server -js) or fix fleet.nats; when the server ' +
        'wants auth, set THE_LOOP_NATS_TOKEN or THE_LOOP_NATS_CREDS',
    );
  }
  const count = facts.instances === 1 ? '1 instance' : `${facts.instances} instances`;
  const joined = facts.bucket ? 'live in LOOP_INSTANCES' : 'no instance has joined yet';
  return ok('fleet', `ok (${count}): NATS at ${facts.nats}, ${joined}`);
}
