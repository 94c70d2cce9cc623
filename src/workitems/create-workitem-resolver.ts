import type { Config } from '../config/types.js';
import type { DeliveryTarget } from '../delivery/delivery-request.js';
import { LoopError } from '../errors.js';
import { harnessTraits } from '../harness/harness-traits.js';
import { parseWorkItemRef, workItemRef, workItemSlug, workItemTarget } from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import { workItemMessages } from './workitem-messages.js';
import type { WorkItemRecord } from './workitem-types.js';

/**
 * Resolves `github:<owner>/<repo>#<n>` to the session the delivery core types into. A message
 * never starts a session: a stopped or exited one is a refusal naming the remedy.
 */
export function createWorkItemResolver(options: {
  readonly config: Config;
  readonly store: RecordStore<WorkItemRecord>;
  readonly owner: string;
}): (ref: string) => Promise<DeliveryTarget> {
  const messages = workItemMessages(options.config);
  return async (ref) => {
    const item = parseWorkItemRef(ref);
    if (!item) throw new LoopError('invalid_ref', `\`${ref}\` is not a work-item ref`);
    const canonical = workItemRef(item);
    const record = await options.store.read(workItemSlug(item));
    if (record?.status === 'exited') {
      throw new LoopError('session_exited', messages.exited(canonical, record.exitStatus));
    }
    if (record?.status !== 'running') {
      throw new LoopError('session_not_running', messages.notRunning(canonical));
    }
    return {
      ref: canonical,
      tmuxName: workItemTarget(item),
      owner: options.owner,
      ...harnessTraits(options.config.harnesses[record.harness]),
      notRunning: messages.notRunning(canonical),
      exited: (exitStatus) => messages.exited(canonical, exitStatus),
    };
  };
}
