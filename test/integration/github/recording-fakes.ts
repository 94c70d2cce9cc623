import type {
  DeliveryCore,
  DeliveryRequest,
  DeliveryResult,
  DeliveryTarget,
} from '../../../src/delivery/delivery-request.js';
import type { EventSink } from '../../../src/state/event-log.js';
import { LoopError } from '../../../src/errors.js';
import { sameWorkItem, workItemRef, type WorkItemRef } from '../../../src/refs.js';
import type { WorkItemService } from '../../../src/workitems/create-workitem-service.js';
import type { WorkItemRecord, WorkItemView } from '../../../src/workitems/workitem-types.js';

export type WorkItemCall =
  | { readonly verb: 'start'; readonly ref: string; readonly actor: string }
  | { readonly verb: 'stop'; readonly ref: string };

/**
 * A WorkItemService that keeps its sessions in memory and records every start and stop. Items
 * in `running` have a live session of this instance; `failStart` makes the next start throw.
 */
export function recordingWorkItems(options: { instance: string; running?: WorkItemRef[] }) {
  const calls: WorkItemCall[] = [];
  const records = new Map<string, WorkItemRecord>();
  let failStart: LoopError | undefined;
  const record = (item: WorkItemRef, status: 'running' | 'stopped'): WorkItemRecord => ({
    version: 1,
    ref: workItemRef(item),
    item,
    instance: options.instance,
    status,
    harness: 'claude',
    cwd: '/work/repo',
    startedBy: 'octocat',
    startedAt: '2024-05-01T10:00:00.000Z',
  });
  for (const item of options.running ?? []) records.set(workItemRef(item), record(item, 'running'));
  const find = (item: WorkItemRef) =>
    [...records.values()].find((entry) => sameWorkItem(entry.item, item));

  const service: WorkItemService = {
    async start(item, actor) {
      calls.push({ verb: 'start', ref: workItemRef(item), actor });
      if (failStart) {
        const failure = failStart;
        failStart = undefined;
        throw failure;
      }
      const known = find(item);
      if (known?.status === 'running') return { outcome: 'already-running' };
      records.set(workItemRef(item), record(item, 'running'));
      return { outcome: known ? 'resumed' : 'started' };
    },
    async stop(item) {
      calls.push({ verb: 'stop', ref: workItemRef(item) });
      const known = find(item);
      if (!known || known.status === 'stopped') return { outcome: 'already-stopped' };
      records.set(known.ref, { ...known, status: 'stopped' });
      return { outcome: 'stopped' };
    },
    async list(): Promise<WorkItemView[]> {
      return [...records.values()].map((entry) => ({
        ref: entry.ref,
        status: entry.status,
        agentState: entry.status === 'running' ? 'idle' : null,
        tmux: entry.status === 'running' ? 'live' : 'absent',
        instance: entry.instance,
        startedBy: entry.startedBy,
        startedAt: entry.startedAt,
      }));
    },
    async records() {
      return [...records.values()];
    },
    async isRunning(item) {
      return find(item)?.status === 'running';
    },
    async resolveTarget(ref): Promise<DeliveryTarget> {
      throw new LoopError('session_not_running', `not used by these tests: ${ref}`);
    },
    async refForToken() {
      return undefined;
    },
    async hasRunning() {
      return false;
    },
    async noticeExits() {
      return undefined;
    },
    async markExited() {
      return undefined;
    },
  };
  return {
    service,
    calls,
    failNextStart(error: LoopError): void {
      failStart = error;
    },
  };
}

/** A DeliveryCore that records each request and answers `outcome` (or throws `failure`). */
export function recordingDelivery(
  answer: { outcome?: DeliveryResult['outcome']; failure?: LoopError } = {},
) {
  const requests: DeliveryRequest[] = [];
  const core: DeliveryCore = {
    async deliver(request) {
      requests.push(request);
      if (answer.failure) throw answer.failure;
      return { outcome: answer.outcome ?? 'delivered', deliveryId: `delivery-${requests.length}` };
    },
  };
  return { core, requests };
}

/** An EventSink that keeps what it is told. */
export function recordingEvents() {
  const events: { event: string; fields: Record<string, unknown> }[] = [];
  const sink: EventSink = {
    record(event, fields = {}) {
      events.push({ event, fields });
    },
  };
  return { sink, events };
}
