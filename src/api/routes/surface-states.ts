import type { SurfaceOutcome } from '../../delivery/surface-outcome.js';
import type { ServiceState } from './status-routes.js';

/**
 * The status report's service rows: the control plane, then each line about a surface that is
 * off or partly off (a note of a surface that is on, e.g. "github: webhook off", is a degraded
 * part of it), then each surface that is on.
 */
export function surfaceStates(
  controlSocket: string,
  surfaces: Readonly<Record<'slack' | 'github', SurfaceOutcome>>,
): ServiceState[] {
  const entries = Object.entries(surfaces) as Array<['slack' | 'github', SurfaceOutcome]>;
  return [
    { name: 'control', state: 'ok', detail: controlSocket },
    ...entries.flatMap(([name, outcome]): ServiceState[] =>
      outcome.on
        ? outcome.notes.map((detail) => ({ name, state: 'degraded' as const, detail }))
        : [{ name, state: 'off' as const, detail: outcome.reason }],
    ),
    ...entries.flatMap(([name, outcome]): ServiceState[] =>
      outcome.on ? [{ name, state: 'ok' as const, detail: outcome.detail }] : [],
    ),
  ];
}

/** One line for each surface that is off or partly off, naming what turns it on. */
export function surfacesOff(states: readonly ServiceState[]): string[] {
  return states.filter((row) => row.state !== 'ok').map((row) => row.detail);
}
