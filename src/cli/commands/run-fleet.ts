import type { CommandHandler } from '../command-context.js';
import { formatColumns } from '../format-columns.js';
import type { FleetInstanceView } from '../../fleet/presence-view.js';

interface FleetReport {
  readonly state: 'ok' | 'down' | 'off';
  readonly instances: readonly FleetInstanceView[];
}

/** `the-loop fleet [--json]` (docs/design.md §21). */
export const runFleet: CommandHandler = async (context) => {
  const report = await context.api<FleetReport>('GET', '/api/v1/fleet');
  if (context.json) context.printJson(report);
  else context.print(formatFleet(report));
  return 0;
};

export function formatFleet(report: FleetReport): string {
  if (report.state === 'off') return 'not in a fleet (no `fleet` block in the config)';
  const rows = report.instances.map((row) => [
    row.name,
    row.live ? 'live' : 'offline',
    row.host || '-',
    row.version || '-',
    row.startedAt || '-',
    row.sessions.join(', ') || '-',
  ]);
  const head = report.state === 'down' ? 'fleet: down (this list may be stale)\n' : '';
  return (
    head + formatColumns([['NAME', 'STATE', 'HOST', 'VERSION', 'STARTED', 'SESSIONS'], ...rows])
  );
}
