// The commands that ask a running serve about itself: status, instance, fleet and the dashboard's
// sign-in URL.
import { formatStatus, formatInstance, formatColumns } from '../format.js';
import type { FleetInstanceView } from '../../fleet/presence-view.js';
import { spawn } from 'node:child_process';
import type { CommandHandler } from '../command-context.js';

/** `the-loop status`: exit 1 when the instance is not ok, with `--json` too. */
export const runStatus: CommandHandler = async (context) => {
  const report = await (await context.loop()).status();
  if (context.json) context.printJson(report);
  else context.print(formatStatus(report));
  return report.ok ? 0 : 1;
};

/** `the-loop instance`. */
export const runInstance: CommandHandler = async (context) => {
  const report = await (await context.loop()).instance();
  if (context.json) context.printJson(report);
  else context.print(formatInstance(report));
  return 0;
};

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

/**
 * `the-loop dashboard [--open]` (docs/design.md §19): asks serve, over the control socket, for a
 * one-time sign-in URL and prints it as one line; `--open` also hands it to the desktop's browser.
 */
export const runDashboard: CommandHandler = async (context) => {
  const answer = await context.api<{ url: string; expiresAt: string }>(
    'POST',
    '/api/v1/dashboard/sign-in',
  );
  if (context.json) context.printJson(answer);
  else context.print(answer.url);
  if (context.hasFlag('open')) openInBrowser(answer.url, context.io.env, context.io.stderr);
  return 0;
};

function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  stderr: { write(text: string): unknown },
): void {
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore', env });
  child.once('error', () => {
    stderr.write(`could not run ${command}: open the URL above in your browser\n`);
  });
  child.unref();
}
