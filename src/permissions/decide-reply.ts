import type { DecideResult } from './create-permission-registry.js';
import { describeOutcome } from './describe-outcome.js';

/**
 * What a person is told after trying to decide (the same words on every surface): done, unknown,
 * no "always" on offer, or already decided by someone else — the first decision wins.
 */
export function decideReply(result: DecideResult, id: string): { ok: boolean; text: string } {
  switch (result.kind) {
    case 'decided':
      return { ok: true, text: `${id}: done` };
    case 'unknown':
      return {
        ok: false,
        text: `no open permission request ${id} on this instance; \`the-loop permissions\` lists them`,
      };
    case 'no-always':
      return {
        ok: false,
        text: `${id} cannot be allowed always: Claude Code offered no rule to save; allow or deny it`,
      };
    case 'already':
      return { ok: false, text: `${id} was already ${describeOutcome(result.outcome)}` };
  }
}
