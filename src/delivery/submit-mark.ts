import type { AgentScreen } from '../harness/claude-screen.js';
import { boxHoldsPaste } from '../harness/claude-screen.js';
import { isRecord } from '../guards.js';
import { isDeliveryTag } from './delivery-tag.js';

/**
 * What a delivery writes down, durably, right before its submitting Enter (docs/architecture.md,
 * "exactly once across a crash"): the message's tag, and the pane it is in. The origin keeps it
 * with the message until the message is done. A restart that finds one does not know whether the
 * Enter went in, and must look before it types the message again.
 */
export interface SubmitMark {
  readonly tag: string;
  readonly tmuxName: string;
  /** The pane's process when the mark was written: a new process means a new input box. */
  readonly panePid?: number;
}

export function isSubmitMark(value: unknown): value is SubmitMark {
  return (
    isRecord(value) &&
    typeof value['tag'] === 'string' &&
    isDeliveryTag(value['tag']) &&
    typeof value['tmuxName'] === 'string' &&
    (value['panePid'] === undefined ||
      (typeof value['panePid'] === 'number' && Number.isInteger(value['panePid'])))
  );
}

/**
 * After a restart, for a message whose mark was written: `press-enter` when our paste still sits
 * in the box (the Enter never went, or was lost); `submitted` when the same process shows an
 * empty box (the Enter went in: typing it again would send it twice); `type-again` when nothing
 * can be told — another process, no box in view — where typing again is the safe side (a message
 * twice beats a message lost).
 */
export type ResumeStep = 'press-enter' | 'submitted' | 'type-again';

export function decideResume(
  mark: SubmitMark,
  seen: { readonly tmuxName: string; readonly panePid?: number; readonly screen: AgentScreen },
): ResumeStep {
  if (mark.tmuxName !== seen.tmuxName) return 'type-again';
  if (mark.panePid === undefined || seen.panePid !== mark.panePid) return 'type-again';
  if (seen.screen.box === undefined) return 'type-again';
  if (boxHoldsPaste(seen.screen, mark.tag)) return 'press-enter';
  return seen.screen.box.trim() === '' ? 'submitted' : 'type-again';
}
