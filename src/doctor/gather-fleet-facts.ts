import type { Config } from '../config/types.js';
import type { FleetFacts } from './check-fleet.js';

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
