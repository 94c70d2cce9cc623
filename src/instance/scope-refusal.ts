import type { InstanceConfig, ScopeMode } from '../config/types.js';
import { isValidName, workItemRef, type WorkItemRef } from '../refs.js';
import type { RefusalOutcome } from './decide-scope.js';
import type { AddressResult } from './parse-address.js';
import { safeLogToken } from './safe-log-token.js';

/**
 * What the comment asked for, as the keyword parser read it. A plain shape of its own, so that
 * instance/ stays below the surfaces that parse comments.
 */
export type CommandSeen =
  | { readonly kind: 'none' }
  | { readonly kind: 'command'; readonly command: 'start' | 'stop' }
  | { readonly kind: 'ambiguous' };

export interface ScopeRefusalInput {
  readonly reason: RefusalOutcome;
  readonly instance: InstanceConfig;
  readonly address: AddressResult;
  readonly command: CommandSeen;
  /** The comment author's login. */
  readonly actor: string;
  readonly workItem: WorkItemRef;
  /** The GitHub delivery id, or the poller's id for the comment. */
  readonly deliveryId: string;
}

/** The fields of one `scope.refused` event. */
export interface ScopeRefusalFields {
  readonly reason: RefusalOutcome;
  /** "" for an unnamed instance. */
  readonly instance: string;
  readonly mode: ScopeMode;
  /** The validated name, or `malformed`, `ambiguous` or `none`. */
  readonly address: string;
  readonly command: 'start' | 'stop' | 'ambiguous' | 'none';
  readonly actor: string;
  readonly workItem: string;
  readonly deliveryId: string;
}

/**
 * Builds the `scope.refused` fields (docs/design.md §7.4) from parsed values only: the address is a
 * validated name or its kind, never the token as typed (a malformed token's text stays out of the
 * log), and the ids from the payload are cut to printable ASCII.
 */
export function scopeRefusalFields(input: ScopeRefusalInput): ScopeRefusalFields {
  const { address, command } = input;
  return {
    reason: input.reason,
    instance: input.instance.name,
    mode: input.instance.scope.mode,
    address: addressField(address),
    command: command.kind === 'command' ? command.command : command.kind,
    actor: safeLogToken(input.actor),
    workItem: workItemRef(input.workItem),
    deliveryId: safeLogToken(input.deliveryId),
  };
}

function addressField(address: AddressResult): string {
  if (address.kind !== 'addressed') return address.kind;
  // parseAddress only yields valid names; a hand-built result must not smuggle text in either.
  return isValidName(address.name) ? address.name : 'malformed';
}
