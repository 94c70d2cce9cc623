import type { StandingService } from '../standing/create-standing-service.js';
import type { WorkItemService } from '../workitems/create-workitem-service.js';
import { standingRef, workItemRef } from '../refs.js';
import type { PermissionRegistry } from './create-permission-registry.js';

/**
 * Stopping a session kills its agent and with it the waiting hook; without this the request
 * would end as `terminal` ("answered in the terminal"), which is not what happened. So the
 * session's open requests end as `stopped` just before the stop (docs/design.md §17).
 */
export function expireStandingOnStop(
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

export function expireWorkItemOnStop(
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
