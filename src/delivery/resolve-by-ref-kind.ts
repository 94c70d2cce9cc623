import { LoopError } from '../errors.js';
import { parseStandingRef, parseWorkItemRef } from '../refs.js';
import type { ResolveTarget } from './delivery-request.js';

/** One resolver per kind of ref (docs/design.md §1); the delivery core asks the one the ref names. */
export interface TargetsByRefKind {
  readonly standing: ResolveTarget;
  readonly workItem: ResolveTarget;
}

/** The delivery core's resolver: the ref's kind picks the table entry; any other ref is refused. */
export function resolveByRefKind(table: TargetsByRefKind): ResolveTarget {
  return async (ref) => {
    if (parseStandingRef(ref)) return table.standing(ref);
    if (parseWorkItemRef(ref)) return table.workItem(ref);
    throw new LoopError('invalid_ref', `\`${ref}\` is not a session ref`);
  };
}
