import { parseWorkItemRef, sameWorkItem, type WorkItemRef } from '../refs.js';

/** Why a work item is this instance's; an item can be managed for several reasons at once. */
export type ManagedSource = 'declared' | 'session' | 'started';

export interface StartRecord {
  readonly ref: WorkItemRef;
  /** The instance that recorded the start ("" for an unnamed one). */
  readonly instance: string;
  /** A stop has ended this start. */
  readonly stopped: boolean;
}

export interface ManagedFacts {
  /** `instance.scope.workItems`: refs or issue/PR URLs, as the config spells them. */
  readonly declared: readonly string[];
  /** The work items this instance has a live session for. */
  readonly liveSessions: readonly WorkItemRef[];
  readonly startRecords: readonly StartRecord[];
}

export interface Managed {
  readonly managed: boolean;
  /** In the order declared, session, started; empty when not managed. */
  readonly sources: ManagedSource[];
}

/**
 * Whether a work item is managed by this instance (docs/design.md §7.4): declared in its config, running
 * in one of its sessions, or started by it (not by another instance) and not stopped since.
 * Host, owner and repo compare without case, so a URL and a ref for the same item agree.
 */
export function isManaged(item: WorkItemRef, facts: ManagedFacts, instanceName: string): Managed {
  const sources: ManagedSource[] = [];
  const declared = facts.declared.some((text) => {
    const ref = parseWorkItemRef(text);
    return ref !== undefined && sameWorkItem(ref, item);
  });
  if (declared) sources.push('declared');
  if (facts.liveSessions.some((ref) => sameWorkItem(ref, item))) sources.push('session');
  const started = facts.startRecords.some(
    (record) =>
      record.instance === instanceName && !record.stopped && sameWorkItem(record.ref, item),
  );
  if (started) sources.push('started');
  return { managed: sources.length > 0, sources };
}
