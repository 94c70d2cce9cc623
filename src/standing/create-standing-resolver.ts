import type { Config } from '../config/types.js';
import type { DeliveryTarget } from '../delivery/delivery-request.js';
import { harnessTraits } from '../harness/harness-traits.js';
import { LoopError } from '../errors.js';
import { parseStandingRef, standingTarget } from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import { standingMessages } from './standing-messages.js';
import type { StandingRecord } from './standing-types.js';

/**
 * Resolves `standing:<name>` to the session the delivery core types into. A message never starts
 * a session: a stopped or unknown one is a refusal naming the remedy.
 */
export function createStandingResolver(options: {
  readonly config: Config;
  readonly store: RecordStore<StandingRecord>;
  readonly owner: string;
}): (ref: string) => Promise<DeliveryTarget> {
  return async (ref) => {
    const name = parseStandingRef(ref);
    if (!name) throw new LoopError('invalid_ref', `\`${ref}\` is not a standing-session ref`);
    const record = await options.store.read(name);
    const declared = options.config.standing.sessions.find((session) => session.name === name);
    if (!record && !declared)
      throw new LoopError('session_unknown', standingMessages.unknown(name));
    if (record?.status === 'exited') {
      throw new LoopError('session_exited', standingMessages.exited(name, record.exitStatus), {
        ...(record.exitStatus === undefined ? {} : { exitStatus: record.exitStatus }),
      });
    }
    if (!record || record.status !== 'running') {
      throw new LoopError('session_not_running', standingMessages.stopped(name));
    }
    const definition = declared ?? record.definition;
    const harness = options.config.harnesses[definition.harness];
    return {
      ref,
      tmuxName: standingTarget(name),
      owner: options.owner,
      ...harnessTraits(harness),
      notRunning: standingMessages.stopped(name),
      exited: (exitStatus) => standingMessages.exited(name, exitStatus),
    };
  };
}
