import type { Config } from '../../config/types.js';
import type { DeliveryLedger } from '../../delivery/delivery-ledger.js';
import { createPermissionHook } from '../../permissions/create-permission-hook.js';
import type { PermissionRegistry } from '../../permissions/create-permission-registry.js';
import type { StandingService } from '../../standing/create-standing-service.js';
import type { TmuxDriver } from '../../tmux/tmux-driver.js';
import type { WorkItemService } from '../../workitems/create-workitem-service.js';
import type { Route } from '../route.js';
import { deliveryRoutes } from './delivery-routes.js';
import { permissionRoutes } from './permission-routes.js';
import { sessionRoutes } from './session-routes.js';
import { standingRoutes } from './standing-routes.js';
import { statusRoutes, type ServiceState } from './status-routes.js';
import { workItemRoutes } from './workitem-routes.js';

type SessionRouteOptions = Parameters<typeof sessionRoutes>[0];

/**
 * The control plane's whole route table (kept equal to schemas/openapi.yaml by a test): status,
 * standing sessions, deliveries, work items, the routes sessions call, and permission requests.
 */
export function controlRoutes(
  options: Pick<
    SessionRouteOptions,
    'directory' | 'readiness' | 'confirmations' | 'replies' | 'logger' | 'progress'
  > & {
    readonly config: Config;
    readonly version: string;
    readonly driver: TmuxDriver;
    readonly standing: StandingService;
    readonly workItems: WorkItemService;
    readonly deliveries: DeliveryLedger;
    readonly permissions: PermissionRegistry;
    /** A function when a row changes while serve runs (the fleet's). */
    readonly services: readonly ServiceState[] | (() => readonly ServiceState[]);
  },
): Route[] {
  const { config, standing, workItems, permissions, driver, version, deliveries, services } =
    options;
  const { directory, readiness, confirmations, replies, logger, progress } = options;
  return [
    ...statusRoutes({
      config,
      standing,
      driver,
      services: typeof services === 'function' ? services : () => services,
      version,
    }),
    ...standingRoutes(standing),
    ...deliveryRoutes(deliveries),
    ...workItemRoutes({ config, workItems }),
    ...sessionRoutes({
      ...{ directory, readiness, confirmations, replies, logger },
      ...(progress ? { progress } : {}),
      ...(config.tmux.socket ? { tmuxSocket: config.tmux.socket } : {}),
      permissionHook: createPermissionHook(permissions),
      permissionRequestOpen: (ref) => permissions.hasOpenRequest(ref),
      endPermissionRequests: (ref) => permissions.expireRef(ref, 'terminal'),
    }),
    ...permissionRoutes(permissions),
  ];
}
