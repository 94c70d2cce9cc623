import type { InstanceConfig, ScopeMode } from '../config/types.js';
import { parseWorkItemRef, sameWorkItem, workItemRef, type WorkItemRef } from '../refs.js';
import type { ManagedSource } from './is-managed.js';

export interface ManagedItem {
  readonly item: WorkItemRef;
  readonly sources: readonly ManagedSource[];
}

/** The body of `GET /api/v1/instance`. */
export interface InstanceDescription {
  readonly name: string;
  readonly scope: { readonly mode: ScopeMode; readonly workItems: readonly string[] };
  readonly managed: readonly {
    readonly ref: string;
    readonly sources: readonly ManagedSource[];
    readonly url: string;
  }[];
  /** Problems in the instance block (they made it resolve to `locked`). */
  readonly warnings: readonly string[];
}

const sourceOrder: readonly ManagedSource[] = ['declared', 'session', 'started'];

/**
 * What `GET /api/v1/instance` answers (docs/design.md §7.4). Declared work items are shown as canonical
 * refs whether the config spelled them as refs or URLs; the same work item listed twice becomes
 * one entry with the union of its sources, in first-seen order.
 */
export function describeInstance(
  instance: InstanceConfig,
  managedList: readonly ManagedItem[],
  warnings: readonly string[] = [],
): InstanceDescription {
  const merged: { item: WorkItemRef; sources: Set<ManagedSource> }[] = [];
  for (const { item, sources } of managedList) {
    const entry = merged.find((known) => sameWorkItem(known.item, item));
    if (entry) sources.forEach((source) => entry.sources.add(source));
    else merged.push({ item, sources: new Set(sources) });
  }
  const workItems = instance.scope.workItems.flatMap((text) => {
    const ref = parseWorkItemRef(text);
    return ref ? [workItemRef(ref)] : [];
  });
  return {
    name: instance.name,
    scope: { mode: instance.scope.mode, workItems },
    managed: merged.map(({ item, sources }) => ({
      ref: workItemRef(item),
      sources: sourceOrder.filter((source) => sources.has(source)),
      url: issueUrl(item),
    })),
    warnings,
  };
}

/** GitHub redirects `/issues/<n>` to `/pull/<n>` for a pull request, so one form serves both. */
function issueUrl(item: WorkItemRef): string {
  const path = [item.owner, item.repo].map(encodeURIComponent).join('/');
  return `https://${item.host.toLowerCase()}/${path}/issues/${item.number}`;
}
