import type { InstanceConfig } from '../config/types.js';
import type { AddressResult } from './parse-address.js';

/** The outcomes that take the event. */
export type ActingOutcome = 'in-scope' | 'claimable';

/** The outcomes that refuse it: logged once as `scope.refused`, no mark left on GitHub. */
export type RefusalOutcome =
  | 'malformed-address'
  | 'ambiguous-address'
  | 'addressed-elsewhere'
  | 'instance-locked'
  | 'unaddressed';

export type ScopeDecision =
  | { readonly outcome: ActingOutcome; readonly acts: true }
  | { readonly outcome: RefusalOutcome; readonly acts: false };

/**
 * Whether this instance takes an event on a work item (docs/design.md §7.4): the first matching row wins.
 * An explicit address outranks the managed set, and nothing but the config's own work items (or
 * this instance's sessions and starts) gets past `locked`.
 */
export function decideScope(
  instance: InstanceConfig,
  address: AddressResult,
  managed: boolean,
): ScopeDecision {
  if (address.kind === 'malformed') return refuse('malformed-address');
  if (address.kind === 'ambiguous') return refuse('ambiguous-address');
  // An unnamed instance can never be the one a name points at.
  const toThis =
    address.kind === 'addressed' && instance.name !== '' && address.name === instance.name;
  if (address.kind === 'addressed' && !toThis) return refuse('addressed-elsewhere');
  if (managed) return act('in-scope');
  switch (instance.scope.mode) {
    case 'open':
      return act('claimable');
    case 'locked':
      return refuse('instance-locked');
    case 'addressed':
      return toThis ? act('claimable') : refuse('unaddressed');
  }
}

function act(outcome: ActingOutcome): ScopeDecision {
  return { outcome, acts: true };
}

function refuse(outcome: RefusalOutcome): ScopeDecision {
  return { outcome, acts: false };
}
