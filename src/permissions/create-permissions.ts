import type { Config } from '../config/types.js';
import type { AgentScreen } from '../harness/claude-screen.js';
import type { Logger } from '../log/create-logger.js';
import { standingRef, workItemRef } from '../refs.js';
import type { StandingService } from '../standing/create-standing-service.js';
import type { EventSink } from '../state/event-log.js';
import type { WorkItemService } from '../workitems/create-workitem-service.js';
import { createPermissionRegistry, type PermissionRegistry } from './create-permission-registry.js';
import type { PermissionOutcome, PermissionRequest } from './permission-types.js';
import { watchTerminalAnswers, type TerminalAnswerWatcher } from './watch-terminal-answers.js';

/** How a surface shows requests: posts each where its people are, marks the post when it ends. */
export interface PermissionPoster<Where> {
  post(request: PermissionRequest): Promise<Where | undefined>;
  settle(request: PermissionRequest, outcome: PermissionOutcome, where: Where): Promise<void>;
}

/**
 * The permission feature (docs/design.md §14, §17), built once by serve: the routes and the hook
 * table take `registry`, each surface shows requests through `follow`, and the session services
 * are guarded so a stop ends their requests as `stopped`.
 */
export interface Permissions {
  readonly registry: PermissionRegistry;
  follow<Where>(poster: PermissionPoster<Where>): void;
  guardStanding(service: StandingService): StandingService;
  guardWorkItems(service: WorkItemService): WorkItemService;
  /** Looks at screens with an open request for an answer given in the terminal. */
  readonly terminalAnswers: TerminalAnswerWatcher;
}

export function createPermissions(options: {
  /** Read at each request (`permissions.timeoutSeconds`, `permissions.alwaysModes`). */
  readonly config: Pick<Config, 'permissions'>;
  readonly events: EventSink;
  readonly logger: Logger;
  /** A session's screen as its harness reads it; undefined when it has none. */
  readonly look: (ref: string) => Promise<AgentScreen | undefined>;
}): Permissions {
  const { config, events, logger } = options;
  const registry = createPermissionRegistry({
    timeoutMs: () => config.permissions.timeoutSeconds * 1000,
    alwaysModes: () => config.permissions.alwaysModes,
    events,
    logger,
  });
  return {
    registry,
    follow: (poster) => followPermissionPosts(registry, poster),
    guardStanding: (service) => expireStandingOnStop(service, registry),
    guardWorkItems: (service) => expireWorkItemOnStop(service, registry),
    terminalAnswers: watchTerminalAnswers({
      registry,
      look: options.look,
      intervalMs: 1_000,
      logger,
    }),
  };
}

/**
 * What a surface does with each permission request: post it where its people are, and once it is
 * settled, mark that post. Settling waits for the post (a fast decision must not race it), and a
 * request whose post failed or had nowhere to go is settled without a mark.
 */
function followPermissionPosts<Where>(
  registry: Pick<PermissionRegistry, 'onChange'>,
  surface: PermissionPoster<Where>,
): void {
  const posted = new Map<string, Promise<Where | undefined>>();
  registry.onChange(async (change) => {
    const { request } = change;
    if (change.kind === 'requested') {
      const post = surface.post(request);
      posted.set(request.id, post);
      await post;
      return;
    }
    const where = await posted.get(request.id);
    posted.delete(request.id);
    if (!where) return;
    await surface.settle(request, change.outcome, where);
  });
}

/**
 * Stopping a session kills its agent and with it the waiting hook; without this the request
 * would end as `terminal` ("answered in the terminal"), which is not what happened. So the
 * session's open requests end as `stopped` just before the stop (docs/design.md §17).
 */
function expireStandingOnStop(
  service: StandingService,
  registry: PermissionRegistry,
): StandingService {
  const expire = (name: string): void => registry.expireRef(standingRef(name), 'stopped');
  return {
    ...service,
    stop: async (name) => {
      expire(name);
      return service.stop(name);
    },
    restart: async (name) => {
      expire(name);
      return service.restart(name);
    },
    delete: async (name) => {
      expire(name);
      return service.delete(name);
    },
    stopAll: async () => {
      for (const view of registry.list().filter((open) => open.ref.startsWith('standing:'))) {
        registry.expireRef(view.ref, 'stopped');
      }
      return service.stopAll();
    },
  };
}

function expireWorkItemOnStop(
  service: WorkItemService,
  registry: PermissionRegistry,
): WorkItemService {
  return {
    ...service,
    stop: async (item) => {
      registry.expireRef(workItemRef(item), 'stopped');
      return service.stop(item);
    },
  };
}
