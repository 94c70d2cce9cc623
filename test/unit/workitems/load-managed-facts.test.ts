import { describe, expect, it } from 'vitest';
import { githubConfig } from '../../helpers/github-config.js';
import { isManaged } from '../../../src/instance/is-managed.js';
import { workItemRef, type WorkItemRef } from '../../../src/refs.js';
import type { WorkItemService } from '../../../src/workitems/create-workitem-service.js';
import { loadManagedFacts } from '../../../src/workitems/load-managed-facts.js';
import type { WorkItemRecord, WorkItemView } from '../../../src/workitems/workitem-types.js';

const item = (number: number): WorkItemRef => ({
  host: 'github.com',
  owner: 'octo',
  repo: 'repo',
  number,
});

const record = (of: WorkItemRef): WorkItemRecord =>
  ({
    version: 1,
    ref: workItemRef(of),
    item: of,
    instance: 'laptop-a',
    status: 'running',
    harness: 'claude',
    cwd: '/tmp',
    startedBy: 'octocat',
    startedAt: '2026-12-01T00:00:00.000Z',
  }) as WorkItemRecord;

/** The records and the tmux listing a work-item service would give, counting the listings. */
function workItems(records: WorkItemRecord[], live: string[]) {
  let listings = 0;
  const service = {
    records: async () => records,
    list: async (): Promise<WorkItemView[]> => {
      listings += 1;
      return records.map(
        (each) =>
          ({
            ref: each.ref,
            status: each.status,
            tmux: live.includes(each.ref) ? 'live' : 'absent',
            instance: each.instance,
            startedBy: each.startedBy,
            startedAt: '2026-12-01T00:00:00.000Z',
          }) as WorkItemView,
      );
    },
  } as unknown as WorkItemService;
  return { service, listings: () => listings };
}

describe('loadManagedFacts for one work item', () => {
  const config = githubConfig({ instance: { name: 'laptop-a' } });

  it('asks tmux nothing for an item with no record: it cannot have a live session of ours', async () => {
    const other = record(item(7));
    const { service, listings } = workItems([other], [other.ref]);
    const facts = await loadManagedFacts(config, service, item(12));
    expect(listings()).toBe(0);
    expect(isManaged(item(12), facts, 'laptop-a').managed).toBe(false);
  });

  it('gives the same answer as the facts about every item, for an item with a record', async () => {
    const mine = record(item(12));
    const { service, listings } = workItems([mine, record(item(7))], [mine.ref]);
    const one = await loadManagedFacts(config, service, item(12));
    const all = await loadManagedFacts(config, service);
    expect(listings()).toBe(2);
    expect(isManaged(item(12), one, 'laptop-a')).toEqual(isManaged(item(12), all, 'laptop-a'));
    expect(isManaged(item(12), one, 'laptop-a').sources).toEqual(['session', 'started']);
  });
});
