import type { AgentSignal, AgentState } from './agent-state-machine.js';

/**
 * What the hooks said of the running turn beyond "a turn runs" (docs/design.md §13, §23).
 *
 * Claude Code 2.1.332 fires a prompt's UserPromptSubmit as soon as the prompt is typed into a
 * running turn, carrying that turn's `prompt_id` (2.1.197 fires it only when the prompt is taken,
 * with a `prompt_id` of its own). Then one of two things happens (test/real/FINDINGS.md (h)):
 *
 * - **injected**: the running turn makes another request (a tool call's result goes back), which
 *   takes the prompt in; that turn's Stop is the last one;
 * - **queued**: the turn ends without another request; after its Stop Claude Code runs the queued
 *   prompts as one turn of their own, which no UserPromptSubmit starts and a Stop ends.
 *
 * Only a tool call between the prompt and the Stop tells the two apart, so the state stays `busy`
 * through a Stop that has a queued prompt behind it.
 */
export interface AgentTurn {
  /** The running turn's `prompt_id`, once a hook named it. */
  readonly promptId?: string;
  /** A prompt went into the running turn and no tool call has taken it in since. */
  readonly queued: boolean;
  /** The running turn is the one of queued prompts, which no UserPromptSubmit started. */
  readonly merged: boolean;
  /** In a merged turn: the `prompt_id` of the turn whose Stop started it. */
  readonly endedPromptId?: string;
}

export const noTurn: AgentTurn = { queued: false, merged: false };

/** The hooks that shape a turn, with the `prompt_id` Claude Code gave them (absent before 2.1). */
export interface TurnHook {
  readonly event: 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse' | 'Stop';
  readonly promptId?: string;
}

/**
 * The turn after a hook, and the agent signal the hook makes (none for a tool call). A pure
 * decision: every row is in test/unit/delivery/agent-turn.test.ts.
 */
export function nextAgentTurn(
  state: AgentState,
  turn: AgentTurn,
  hook: TurnHook,
): { readonly turn: AgentTurn; readonly signal?: AgentSignal } {
  const promptId = hook.promptId;
  switch (hook.event) {
    case 'UserPromptSubmit': {
      const running = state === 'busy' || state === 'waiting';
      // Hooks are separate processes and reach serve in any order: a prompt queued into the turn
      // that just ended can be heard after that turn's Stop. It is one of the prompts this merged
      // turn is taking, not one queued behind it (which would hold `busy` past its Stop).
      if (running && turn.merged && promptId !== undefined && promptId === turn.endedPromptId) {
        return { turn, signal: 'prompt' };
      }
      // Into the running turn: it carries that turn's prompt_id; a merged turn's is not known
      // until a hook of its own names it, so any prompt during one counts.
      const into =
        running &&
        (turn.merged
          ? turn.promptId === undefined || promptId === turn.promptId
          : promptId !== undefined && promptId === turn.promptId);
      if (into) {
        const known = turn.promptId ?? promptId;
        return {
          turn: { ...(known ? { promptId: known } : {}), queued: true, merged: turn.merged },
          signal: 'prompt',
        };
      }
      // A turn of its own (2.1.197 always; 2.1.332 when nothing ran, or after an interrupt).
      return {
        turn: { ...(promptId ? { promptId } : {}), queued: false, merged: false },
        signal: 'prompt',
      };
    }
    case 'PreToolUse':
    case 'PostToolUse': {
      // A tool call means another request in this turn, and that request takes the prompt in.
      const known = turn.promptId ?? promptId;
      return {
        turn: {
          ...(known ? { promptId: known } : {}),
          queued: false,
          merged: turn.merged,
          ...(turn.endedPromptId ? { endedPromptId: turn.endedPromptId } : {}),
        },
      };
    }
    case 'Stop':
      return turn.queued
        ? {
            turn: {
              queued: false,
              merged: true,
              ...(turn.promptId ? { endedPromptId: turn.promptId } : {}),
            },
            signal: 'stop-queued',
          }
        : { turn: noTurn, signal: 'stop' };
  }
}

/** The turn-shaping part of a hook's payload: its `prompt_id`, when it is a string. */
export function turnHook(event: TurnHook['event'], payload: Record<string, unknown>): TurnHook {
  const promptId = payload['prompt_id'];
  return typeof promptId === 'string' && promptId !== '' ? { event, promptId } : { event };
}
