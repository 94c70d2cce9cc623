import type { FleetConfig } from '../config/types.js';
import type { EventSink } from '../state/event-log.js';
import type { Logger } from '../log/create-logger.js';
import type { FleetTarget, SlackFleetTarget } from './fleet-envelope.js';
import type { LeaseHold } from './poll-lease.js';
import type { FleetInstanceView } from './presence-view.js';
import type { OwnerLookup } from './slack-owner-query.js';

export type FleetState =
  | { readonly state: 'ok'; readonly instances: number }
  | { readonly state: 'down'; readonly since: string; readonly why: string };

/** One instance's membership of the fleet (docs/design.md §21), as serve and its surfaces see it. */
export interface Fleet {
  readonly name: string;
  /** Joins; throws `fleet_name_taken` when a live instance holds the name. */
  start(): Promise<void>;
  /** Starts taking this instance's messages: once its surfaces are up. */
  open(): Promise<void>;
  stop(): Promise<void>;
  /** A Slack envelope this instance received: resolves once it is safe to acknowledge. */
  takeSlack(type: string, body: Record<string, unknown>): Promise<void>;
  /** A GitHub webhook delivery: resolves once every instance will see it. */
  takeGithub(id: string, event: string, body: Record<string, unknown>): Promise<void>;
  attachSlack(target: SlackFleetTarget): void;
  attachGithub(target: FleetTarget): void;
  /** Whether this instance polls `repo` (a lease in `LOOP_LOCKS`); `taken` when it just came. */
  pollLease(repo: string): Promise<LeaseHold>;
  threadBound(channel: string, threadTs: string, ref: string): Promise<void>;
  permissionOpened(id: string, ref: string): Promise<void>;
  permissionSettled(id: string): Promise<void>;
  /** Claims a standing session's name in the fleet, or throws `name_taken` naming the holder. */
  claimName(name: string): Promise<void>;
  releaseName(name: string): Promise<void>;
  state(): FleetState;
  list(): Promise<FleetInstanceView[]>;
}

export interface FleetOptions {
  readonly fleet: FleetConfig;
  readonly name: string;
  /** The state root's instance id. */
  readonly id: string;
  readonly version: string;
  readonly stateRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly events: EventSink;
  readonly logger: Logger;
  /** Whether this instance owns what `lookup` names, from its own records (NATS down). */
  readonly localOwns: (lookup: OwnerLookup) => Promise<boolean>;
  /** The standing sessions this instance runs, for its presence entry. */
  readonly sessions: () => Promise<string[]>;
  readonly now?: () => number;
}
