import { createAgentSay } from '../../agents/create-agent-say.js';
import { createMessageLimiter } from '../../agents/message-window.js';
import type { Config } from '../../config/types.js';
import type { EventLog } from '../../state/event-log.js';
import type { DeliveryStatuses } from '../../delivery/delivery-statuses.js';
import type { Permissions } from '../../permissions/create-permissions.js';
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
    | 'directory'
    | 'states'
    | 'confirmations'
    | 'replies'
    | 'logger'
    | 'progress'
    | 'projectsDir'
    | 'secretIn'
  > & {
    readonly config: Config;
    readonly version: string;
    readonly driver: TmuxDriver;
    readonly standing: StandingService;
    readonly workItems: WorkItemService;
    readonly deliveries: DeliveryStatuses;
    /** The permission feature: its requests are listed and decided here, opened by a hook. */
    readonly permissions: Permissions;
    /** The status report's service rows, read at each request. */
    readonly services: () => readonly ServiceState[];
    /** Where `agent.message` is recorded. */
    readonly events: Pick<EventLog, 'record'>;
  },
): Route[] {
  const { config, standing, workItems, permissions, driver, version, deliveries, services } =
    options;
  const { directory, states, confirmations, replies, logger, progress, projectsDir } = options;
  const { secretIn } = options;
  return [
    ...statusRoutes({
      config,
      standing,
      driver,
      services,
      version,
    }),
    ...standingRoutes(standing, {
      directory,
      say: createAgentSay({
        standing,
        limiter: createMessageLimiter({ limit: () => config.agents.maxMessagesPerMinute }),
        limit: () => config.agents.maxMessagesPerMinute,
        events: options.events,
      }),
    }),
    ...deliveryRoutes(deliveries),
    ...workItemRoutes({ config, workItems }),
    ...sessionRoutes({
      ...{ directory, states, confirmations, replies, logger, projectsDir },
      maxPostFileBytes: config.slack.files.maxBytes,
      ...(secretIn ? { secretIn } : {}),
      ...(progress ? { progress } : {}),
      ...(config.tmux.socket ? { tmuxSocket: config.tmux.socket } : {}),
      permissions: permissions.registry,
    }),
    ...permissionRoutes(permissions.registry),
  ];
}
