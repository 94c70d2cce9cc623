import type { Route } from '../api/route.js';
import type { Config } from '../config/types.js';
import type { Logger } from '../log/create-logger.js';
import type { PermissionRegistry } from '../permissions/create-permission-registry.js';
import type { StandingRecord } from '../standing/standing-types.js';
import type { RecordStore } from '../state/record-store.js';
import type { OwnerLookup } from './slack-owner-query.js';
import type { ServiceState } from '../api/routes/status-routes.js';
import { asLoopError } from '../errors.js';
import { isValidName } from '../refs.js';
import type { StandingService } from '../standing/create-standing-service.js';
import type { Fleet, FleetState } from './create-fleet.js';

/**
 * The small pieces serve adds when it is in a fleet (docs/design.md §21). Type imports only: an
 * instance without a `fleet` block never loads NATS.
 */

/** `standing create` claims the name fleet-wide first; `delete` releases it. */
export function claimFleetNames(service: StandingService, fleet: Fleet): StandingService {
  return {
    ...service,
    create: async (input) => {
      const { name } = input;
      // An invalid name is refused by the service itself, with its own message.
      if (typeof name !== 'string' || !isValidName(name)) return service.create(input);
      await fleet.claimName(name);
      try {
        return await service.create(input);
      } catch (error) {
        // A name this instance already uses stays claimed by it.
        if (asLoopError(error).code !== 'name_taken') {
          await fleet.releaseName(name).catch(() => undefined);
        }
        throw error;
      }
    },
    delete: async (name) => {
      await service.delete(name);
      await fleet.releaseName(name).catch(() => undefined);
    },
  };
}

/** The `fleet` line of status: `ok (3 instances)` or `down since <time>: <why>`. */
export function fleetServiceState(state: FleetState): ServiceState {
  if (state.state === 'ok') {
    const count = state.instances === 1 ? '1 instance' : `${state.instances} instances`;
    return { name: 'fleet', state: 'ok', detail: `ok (${count})` };
  }
  return { name: 'fleet', state: 'failed', detail: `down since ${state.since}: ${state.why}` };
}

/** `GET /api/v1/fleet`: every instance, live or still holding a name; empty outside a fleet. */
export function fleetRoutes(fleet: Fleet | undefined): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/fleet',
      operationId: 'getFleet',
      auth: 'operator',
      handler: async () => ({
        status: 200,
        body: fleet
          ? { state: fleet.state().state, instances: await fleet.list() }
          : { state: 'off', instances: [] },
      }),
    },
  ];
}

/** Whether this instance owns what a lookup names, from its own records (NATS unreachable). */
export function fleetLocalOwner(options: {
  readonly config: Config;
  readonly store: RecordStore<StandingRecord>;
  readonly permissions: PermissionRegistry;
  /** This instance's own Slack thread bindings. */
  readonly bindings: { find(channel: string, threadTs: string): Promise<unknown> };
}): (lookup: OwnerLookup) => Promise<boolean> {
  const { config, store, permissions, bindings } = options;
  const me = config.instance.name;
  const boundHere = async (key: string): Promise<boolean> => {
    const [, channel, ...ts] = key.split('.');
    return (await bindings.find(channel ?? '', ts.join('.'))) !== undefined;
  };
  return async (lookup) => {
    switch (lookup.by) {
      case 'key':
        return lookup.bucket === 'sessions'
          ? (await store.read(lookup.key.replace(/^standing\./, ''))) !== undefined
          : boundHere(lookup.key);
      case 'permission':
        return (
          permissions.find(lookup.key) !== undefined ||
          (lookup.thread !== undefined && (await boundHere(lookup.thread)))
        );
      case 'create':
        return (lookup.instance ?? config.fleet?.defaultInstance ?? me) === me;
      case 'receiver':
        return true;
    }
  };
}

/** Each open permission request is findable by its id fleet-wide, for the click's owner. */
export function shareFleetPermissions(
  permissions: PermissionRegistry,
  fleet: Fleet,
  logger: Logger,
): void {
  permissions.onChange(async (change) => {
    const sharing =
      change.kind === 'requested'
        ? fleet.permissionOpened(change.request.id, change.request.ref)
        : fleet.permissionSettled(change.request.id);
    await sharing.catch((error: unknown) => {
      logger.warn({ event: 'fleet.permission_share_failed', err: error }, 'not shared');
    });
  });
}
