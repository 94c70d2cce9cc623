import { boxHoldsPaste, type AgentScreen } from '../harness/claude-screen.js';
import type { AgentStates } from './agent-states.js';
import type { PendingConfirmation } from './confirmation-tracker.js';
import type { DeliveryTarget } from './delivery-request.js';

/** What one turn in the session's queue ends with: taken already, or taken later. */
export type Typed = { readonly confirmed: boolean } | { readonly later: Promise<boolean> };

/** How long a message typed into a running turn may wait to be taken (a long turn). */
const busyTakeLimitMs = 6 * 60 * 60 * 1000;

/**
 * After a submitting Enter, the wait for the harness to confirm the prompt by its tag
 * (docs/design.md §17): at once for an idle agent — with Enter once more while the paste still
 * sits in the box — or when the running turn takes it, for a busy one.
 */
export function createConfirmationWait(options: {
  readonly states: AgentStates;
  readonly confirmTimeoutMs: number;
  readonly look: (target: DeliveryTarget) => Promise<AgentScreen>;
  readonly enterAgain: (target: DeliveryTarget) => Promise<unknown>;
}) {
  const { states } = options;

  /** A message typed into a running turn is taken when the turn ends (or injected into it). */
  const takenLater = async (
    target: DeliveryTarget,
    pending: PendingConfirmation,
  ): Promise<boolean> => {
    try {
      const deadline = Date.now() + busyTakeLimitMs;
      while (!pending.confirmed && Date.now() < deadline) {
        if (states.state(target.tmuxName) !== 'busy') {
          // The turn ended: Claude Code starts the next one with what waited, at once.
          return await pending.wait(options.confirmTimeoutMs);
        }
        await Promise.race([pending.wait(busyTakeLimitMs), states.changed(target.tmuxName)]);
      }
      return pending.confirmed;
    } finally {
      pending.cancel();
    }
  };

  /**
   * No confirmation in time: Enter again only when the paste still sits in the input box (the
   * first message of a fresh Claude Code loses an early Enter); `undefined` when the agent took it
   * into a running turn or its queue.
   */
  const confirmOnce = async (target: DeliveryTarget, pending: PendingConfirmation, tag: string) => {
    for (let enters = 1; ; enters += 1) {
      if (await pending.wait(options.confirmTimeoutMs)) return true;
      if (!target.screen) return false;
      const screen = await options.look(target);
      if (screen.queued || screen.busy || states.state(target.tmuxName) === 'busy')
        return undefined;
      if (enters >= 3 || !boxHoldsPaste(screen, tag)) return false;
      await options.enterAgain(target);
    }
  };

  return {
    /** `busy`: the agent was running a turn when the message went in. */
    async afterEnter(
      target: DeliveryTarget,
      pending: PendingConfirmation,
      tag: string,
      busy: boolean,
      progress: (outcome: 'queued', reason: string) => void,
    ): Promise<Typed> {
      if (busy) {
        progress('queued', 'busy');
        return { later: takenLater(target, pending) };
      }
      const confirmed = await confirmOnce(target, pending, tag);
      if (confirmed !== undefined) {
        pending.cancel();
        return { confirmed };
      }
      // The agent went busy meanwhile: the prompt is in, taken when the turn allows.
      progress('queued', 'busy');
      return { later: takenLater(target, pending) };
    },
  };
}
