import type { Config } from '../../config/types.js';
import { needsRestart } from '../../harness/needs-restart.js';
import type { StandingService } from '../../standing/create-standing-service.js';
import type { StandingView } from '../../standing/standing-types.js';
import type { TmuxDriver } from '../../tmux/tmux-driver.js';
import type { Route } from '../route.js';

export interface ServiceState {
  readonly name: string;
  readonly state: 'ok' | 'off' | 'degraded' | 'failed';
  readonly detail: string;
}

export interface StatusReport {
  readonly ok: boolean;
  readonly instance: {
    readonly name: string;
    readonly scopeMode: string;
    readonly warnings: readonly string[];
  };
  readonly services: readonly ServiceState[];
  readonly sessions: readonly StandingView[];
  readonly problems: readonly string[];
}

/** Not ok when an auto-start session is down or tmux cannot be reached. */
export function summarizeStatus(
  config: Config,
  services: readonly ServiceState[],
  sessions: readonly StandingView[],
): StatusReport {
  const problems = [
    ...sessions
      .filter((session) => session.autoStart && session.status !== 'running')
      .map(
        (session) =>
          `auto-start session \`${session.name}\` is not running — run \`the-loop standing start ${session.name}\``,
      ),
    ...sessions
      .filter((session) => needsRestart(session, config.harnesses[session.harness]))
      .map(
        (session) =>
          `session \`${session.name}\` runs the hooks of an older the-loop — run \`the-loop standing restart ${session.name}\``,
      ),
    ...services
      .filter((service) => service.state === 'failed')
      .map((service) => `${service.name}: ${service.detail}`),
  ];
  return {
    ok: problems.length === 0,
    instance: {
      name: config.instance.name,
      scopeMode: config.instance.scope.mode,
      warnings: config.instanceWarnings,
    },
    services,
    sessions,
    problems,
  };
}

export function statusRoutes(options: {
  readonly config: Config;
  readonly standing: StandingService;
  readonly driver: TmuxDriver;
  readonly services: () => readonly ServiceState[];
  readonly version: string;
}): Route[] {
  const { config } = options;
  return [
    {
      method: 'GET',
      path: '/api/v1/health',
      operationId: 'getHealth',
      auth: 'operator',
      handler: async () => ({
        status: 200,
        body: {
          ok: true,
          instance: config.instance.name,
          version: options.version,
          pid: process.pid,
        },
      }),
    },
    {
      method: 'GET',
      path: '/api/v1/status',
      operationId: 'getStatus',
      auth: 'operator',
      handler: async () => {
        const listing = await options.driver.listSessions();
        const tmux: ServiceState = listing.ok
          ? {
              name: 'tmux',
              state: 'ok',
              detail: config.tmux.socket ? `socket ${config.tmux.socket}` : 'default server',
            }
          : { name: 'tmux', state: 'failed', detail: listing.reason };
        const sessions = await options.standing.list();
        return {
          status: 200,
          body: summarizeStatus(config, [...options.services(), tmux], sessions),
        };
      },
    },
  ];
}
