import { fileURLToPath } from 'node:url';
import type { Route } from '../api/route.js';
import { permissionRoutes } from '../api/routes/permission-routes.js';
import type { ServiceState } from '../api/routes/status-routes.js';
import type { Config } from '../config/types.js';
import type { AgentState } from '../delivery/agent-state-machine.js';
import type { ResolveTarget } from '../delivery/delivery-request.js';
import type { SayAnswer } from '../delivery/first-answer.js';
import { LoopError, errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { PermissionRegistry } from '../permissions/create-permission-registry.js';
import type { StandingView } from '../standing/standing-types.js';
import type { WorkItemRecord, WorkItemView } from '../workitems/workitem-types.js';
import { createDashboardServer, type DashboardServer } from './create-dashboard-server.js';
import { dashboardListen } from '../config/dashboard-listen.js';
import { createSignInStore } from './sign-in-store.js';
import { createTerminalCache } from './terminal-cache.js';
import { uiRoutes } from './ui-routes.js';

/** The compiled browser modules, beside this module's folder in dist/. */
const assetsDir = fileURLToPath(new URL('../dashboard-client/', import.meta.url));

export interface Dashboard {
  /** The `POST /api/v1/dashboard/sign-in` route `the-loop dashboard` calls (control plane). */
  readonly routes: readonly Route[];
  /** Listens (a port another program holds leaves it off, with a warning). */
  start(apiRoutes: readonly Route[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The dashboard of docs/design.md §19, built from serve's parts: its listener (the whole
 * `/api/v1` with permission decisions as `surface: dashboard`, plus its own `/ui` routes), the
 * sign-in codes `the-loop dashboard` asks for, and the one shared terminal cache.
 */
export function openDashboard(options: {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly events: { record(event: string, fields?: Record<string, unknown>): void };
  readonly permissions: PermissionRegistry;
  readonly services: () => readonly ServiceState[];
  readonly standing: () => Promise<StandingView[]>;
  readonly workItems: () => Promise<{ views: WorkItemView[]; records: WorkItemRecord[] }>;
  readonly agentState: (tmuxName: string) => AgentState | undefined;
  readonly resolve: ResolveTarget;
  readonly capture: (tmuxName: string) => Promise<string>;
  readonly say: (ref: string, text: string, signal: AbortSignal) => Promise<SayAnswer>;
  readonly lastSeq: () => number;
}): Dashboard {
  const { config, logger } = options;
  const listen = dashboardListen(config.dashboard.listen);
  // THE_LOOP_DASHBOARD_CODE_TTL_MS can only shorten the 2 minutes (docs/dashboard.md).
  const ttl = Number(options.env['THE_LOOP_DASHBOARD_CODE_TTL_MS']);
  const signIn = createSignInStore(Number.isFinite(ttl) && ttl > 0 ? { codeTtlMs: ttl } : {});
  const terminal = createTerminalCache({
    capture: async (ref) => options.capture((await options.resolve(ref)).tmuxName),
    maxAgeMs: 450,
  });
  let server: DashboardServer | undefined;

  const codeRoute: Route = {
    method: 'POST',
    path: '/api/v1/dashboard/sign-in',
    operationId: 'createDashboardSignIn',
    auth: 'operator',
    handler: async () => {
      const address = server?.address();
      if (listen === undefined || address === undefined) {
        throw new LoopError(
          'conflict',
          listen === undefined
            ? 'the dashboard is off (dashboard.listen: off): set dashboard.listen, e.g. 127.0.0.1:8791, and restart serve'
            : `the dashboard is not listening on ${config.dashboard.listen} (the serve log says why): free that port or change dashboard.listen, then restart serve`,
        );
      }
      const { code, expiresAt } = signIn.issueCode();
      const host = ['0.0.0.0', '[::]', '::'].includes(address.host) ? 'localhost' : address.host;
      return {
        status: 201,
        body: {
          url: `http://${host}:${address.port}/login?code=${code}`,
          expiresAt: new Date(expiresAt).toISOString(),
        },
      };
    },
  };

  return {
    routes: [codeRoute],
    async start(apiRoutes) {
      if (listen === undefined) return;
      const decisions = new Set(
        permissionRoutes(options.permissions).map((route) => route.operationId),
      );
      const routes = [
        ...apiRoutes.filter((route) => !decisions.has(route.operationId)),
        ...permissionRoutes(options.permissions, 'dashboard'),
        ...uiRoutes({ ...options, terminal: (ref) => terminal.read(ref) }),
      ];
      const created = createDashboardServer({
        listen,
        allowedHosts: config.dashboard.allowedHosts,
        apiToken: options.env['THE_LOOP_API_TOKEN'] ?? '',
        signIn,
        routes,
        assetsDir,
        onSignedIn: (via) => options.events.record('dashboard.signed_in', { via }),
        logger,
      });
      try {
        await created.start();
        server = created;
        const address = created.address();
        logger.info(
          { event: 'dashboard.listening', address },
          'dashboard.listening: `the-loop dashboard` prints a sign-in link',
        );
      } catch (error) {
        const code = errnoCode(error);
        if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw error;
        logger.warn(
          { event: 'dashboard.off', code, listen: config.dashboard.listen },
          `dashboard off: cannot listen on ${config.dashboard.listen} (${code}); free the port or change dashboard.listen`,
        );
      }
    },
    async stop() {
      await server?.stop();
      server = undefined;
    },
  };
}
