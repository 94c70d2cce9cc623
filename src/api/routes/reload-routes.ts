import { isConfigError } from '../../config/config-error.js';
import type { ConfigReloader, ReloadRecord } from '../../config/create-config-reloader.js';
import type { Route } from '../route.js';
import type { ServiceState } from './status-routes.js';

/**
 * `POST /api/v1/reload` (docs/design.md §22): 200 with what applied and what needs a restart, or
 * 400 `config_invalid` naming the refused keys (nothing changed).
 */
export function reloadRoutes(reloader: ConfigReloader): Route[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/reload',
      operationId: 'reloadConfig',
      auth: 'operator',
      handler: async () => {
        try {
          return { status: 200, body: await reloader.reload('api') };
        } catch (error) {
          if (!isConfigError(error)) throw error;
          const keys = error.issues.map((issue) => issue.path).filter((path) => path !== '');
          return {
            status: 400,
            body: {
              error: `${error.message}\nserve keeps running on the config it had; fix the file and run \`the-loop reload\` again`,
              code: error.code,
              ...(keys[0] === undefined ? {} : { key: keys[0] }),
              issues: error.issues,
            },
          };
        }
      },
    },
  ];
}

/** The status report's `config` row: ok, or degraded while the last reload was refused. */
export function reloadServiceState(
  configPath: string,
  last: ReloadRecord | undefined,
): ServiceState {
  if (last === undefined) return { name: 'config', state: 'ok', detail: configPath };
  if (last.ok) return { name: 'config', state: 'ok', detail: `${configPath}, reloaded ${last.at}` };
  return {
    name: 'config',
    state: 'degraded',
    detail:
      `last reload failed ${last.at} (serve runs on the config it had): ${last.error} — ` +
      'fix the file and run `the-loop reload`',
  };
}
