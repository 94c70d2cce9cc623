/**
 * The state an agent is in (docs/design.md §13), learnt from its hooks first and the screen only where no
 * hook tells. Delivery follows from it: typed into `idle` (confirmed by tag) and `busy` (queued),
 * held while `starting`, `blocked` or `waiting`, refused when `exited`.
 */
export type AgentState = 'starting' | 'blocked' | 'idle' | 'busy' | 'waiting' | 'exited';

export type AgentSignal =
  /** the-loop spawned the harness. */
  | 'spawned'
  /** SessionStart, or a command harness's ready pattern. */
  | 'ready'
  /** A dialog before the prompt (trust this folder, custom API key, login). */
  | 'dialog'
  /** The screen shows neither the input box nor a dialog the-loop knows, for a few seconds. */
  | 'unreadable'
  /** The input box is back after an unreadable screen. */
  | 'readable'
  /** UserPromptSubmit: a turn runs. */
  | 'prompt'
  /** Stop: the turn ended (or an interrupt the-loop sent, which Claude Code ends with no Stop). */
  | 'stop'
  /**
   * Stop of a turn with a prompt queued behind it: Claude Code runs that prompt's turn at once,
   * and no UserPromptSubmit starts it (2.1.332; src/delivery/agent-turn.ts).
   */
  | 'stop-queued'
  /** PermissionRequest, or a `permission_prompt` notice. */
  | 'permission'
  /** The permission question is gone (decided, answered in the terminal, no longer on screen). */
  | 'permission-ended'
  /** The pane died. */
  | 'exit';

/** The next state; a pure table, so every transition has a row in a test. */
export function nextAgentState(state: AgentState, signal: AgentSignal): AgentState {
  if (signal === 'spawned') return 'starting';
  if (signal === 'exit') return 'exited';
  if (state === 'exited') return state;
  switch (signal) {
    case 'ready':
      // A late SessionStart (a resume) never ends a turn or a question that is already running.
      return state === 'starting' || state === 'blocked' ? 'idle' : state;
    case 'dialog':
      return state === 'starting' ? 'blocked' : state;
    case 'unreadable':
      // A permission question is a dialog the-loop knows: its own signals end it.
      return state === 'waiting' ? state : 'blocked';
    case 'readable':
      return state === 'blocked' ? 'idle' : state;
    case 'prompt':
      return 'busy';
    case 'stop':
      return 'idle';
    case 'stop-queued':
      return state === 'starting' || state === 'blocked' ? state : 'busy';
    case 'permission':
      return state === 'starting' || state === 'blocked' ? state : 'waiting';
    case 'permission-ended':
      return state === 'waiting' ? 'busy' : state;
  }
}

/** Whether the delivery core may type into an agent in this state (§13 table). */
export function typeable(state: AgentState): boolean {
  return state === 'idle' || state === 'busy';
}

/** Why a delivery waits (`delivery.held` reason), or undefined when it need not. */
export function heldReason(state: AgentState): 'starting' | 'dialog' | 'permission' | undefined {
  switch (state) {
    case 'starting':
      return 'starting';
    case 'blocked':
      return 'dialog';
    case 'waiting':
      return 'permission';
    default:
      return undefined;
  }
}
