import type { Config } from '../config/types.js';
import type { ManagedItem } from '../instance/describe-instance.js';
import { isManaged, type ManagedFacts } from '../instance/is-managed.js';
import { parseWorkItemRef, sameWorkItem, type WorkItemRef } from '../refs.js';
import type { WorkItemService } from './create-workitem-service.js';

/**
 * What §7.4's "managed" is decided from: the config, live sessions and this instance's records.
 * Given `item`, only the facts about that one work item: a live session counts only through its
 * record, so an item with no record costs no tmux call (a comment on an issue nobody here works
 * on is judged from the files alone).
 */
export async function loadManagedFacts(
  config: Config,
  workItems: WorkItemService,
  item?: WorkItemRef,
): Promise<ManagedFacts> {
  const records = (await workItems.records()).filter(
    (record) => item === undefined || sameWorkItem(record.item, item),
  );
  const live = new Set(
    records.length === 0
      ? []
      : (await workItems.list()).filter((view) => view.tmux === 'live').map((view) => view.ref),
  );
  return {
    declared: config.instance.scope.workItems,
    liveSessions: records.filter((record) => live.has(record.ref)).map((record) => record.item),
    startRecords: records.map((record) => ({
      ref: record.item,
      instance: record.instance,
      stopped: record.status === 'stopped',
    })),
  };
}

/** Every work item this instance manages, with why. */
export function listManaged(config: Config, facts: ManagedFacts): ManagedItem[] {
  const candidates: WorkItemRef[] = [
    ...facts.declared.flatMap((text) => {
      const ref = parseWorkItemRef(text);
      return ref ? [ref] : [];
    }),
    ...facts.liveSessions,
    ...facts.startRecords.map((record) => record.ref),
  ];
  return candidates.flatMap((item) => {
    const managed = isManaged(item, facts, config.instance.name);
    return managed.managed ? [{ item, sources: managed.sources }] : [];
  });
}
