// The fleet: probe NATS when the config has a `fleet` block, and check what it found.
import type { Config } from '../config/types.js';
import { fail, ok, type DoctorCheck } from './doctor-check.js';

/** How long doctor waits for NATS, connect and read together. */
export const fleetProbeTimeoutMs = 3_000;

/**
 * Probes `fleet.nats` when the config has a `fleet` block; NATS is imported only then
 * (docs/design.md §21), so doctor on a lone instance never loads it.
 */
export async function gatherFleetFacts(
  config: Config,
  env: NodeJS.ProcessEnv,
  timeoutMs = fleetProbeTimeoutMs,
): Promise<FleetFacts> {
  const { fleet } = config;
  if (!fleet) return { kind: 'off' };
  const { probeFleet } = await import('../fleet/probe-fleet.js');
  const name = `${config.instance.name || 'unnamed'} doctor`;
  const probe = await probeFleet({ fleet, env, name, timeoutMs });
  return { ...probe, nats: withoutUserInfo(fleet.nats) };
}

/** `nats://user:secret@host` may carry a password: doctor's output never shows it. */
export function withoutUserInfo(servers: string): string {
  return servers.replace(/\/\/[^/@,]*@/g, '//***@');
}

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
