import { LoopError } from '../errors.js';
import {
  heldReason,
  nextAgentState,
  typeable,
  type AgentSignal,
  type AgentState,
} from './agent-state-machine.js';
import { nextAgentTurn, noTurn, type AgentTurn, type TurnHook } from './agent-turn.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

export interface AgentStateChange {
  readonly target: string;
  readonly ref?: string;
  readonly from: AgentState | undefined;
  readonly to: AgentState;
}

/**
 * The write side of the agent states a harness launcher needs for a session it starts: `spawned`
 * when it starts one, `ready` when the session says so (Claude Code's SessionStart hook, or a
 * command's ready pattern), `blocked` on a start-up dialog, `exited` when the pane dies first.
 */
export interface AgentStateSignals {
  /** `ref` names the session in the state changes it reports (`agent.state`). */
  spawned(target: string, ref?: string): void;
  ready(target: string): void;
  /** A dialog before the prompt (trust this folder, custom API key) waits for a person. */
  blocked(target: string): void;
  /** The harness process ended before it was ready. */
  exited(target: string): void;
  /** The state, or undefined for a session nothing is known of. */
  state(target: string): AgentState | undefined;
  forget(target: string): void;
  isReady(target: string): boolean;
  waitUntilReady(target: string, timeoutMs: number): Promise<void>;
}

/**
 * Every session's agent state, by tmux target. A session this process never saw spawn — one that
 * was already running when `serve` started — counts as idle until a hook says otherwise.
 */
export interface AgentStates extends AgentStateSignals {
  /** The state, or undefined for a session nothing is known of (treated as idle). */
  state(target: string): AgentState | undefined;
  signal(target: string, signal: AgentSignal, ref?: string): void;
  /** A hook that shapes a turn (UserPromptSubmit, Pre/PostToolUse, Stop), with its prompt_id. */
  hook(target: string, hook: TurnHook, ref?: string): void;
  /** Resolves at the target's next state change. */
  changed(target: string): Promise<void>;
  /** Waits until the agent may be typed into; `onHeld` hears once why it waits, if it does. */
  waitUntilTypeable(
    target: string,
    options: {
      readonly startingTimeoutMs: number;
      readonly onHeld?: (reason: 'starting' | 'dialog' | 'permission') => void;
      readonly signal?: AbortSignal;
    },
  ): Promise<void>;
}

export function createAgentStates(
  options: {
    readonly onChange?: (change: AgentStateChange) => void;
    /** `tmux.socket` ("" or unset = the default server), for the attach line (§17). */
    readonly tmuxSocket?: string;
  } = {},
): AgentStates {
  const states = new Map<string, AgentState>();
  const refs = new Map<string, string>();
  const turns = new Map<string, AgentTurn>();
  const waiters = new Map<string, Set<() => void>>();

  const wake = (target: string): void => {
    const set = waiters.get(target);
    waiters.delete(target);
    for (const resolve of set ?? []) resolve();
  };

  const changed = (target: string): Promise<void> =>
    new Promise((resolve) => {
      const set = waiters.get(target) ?? new Set();
      set.add(resolve);
      waiters.set(target, set);
    });

  const signal = (target: string, what: AgentSignal, ref?: string): void => {
    if (ref) refs.set(target, ref);
    // A new process, its end, or an interrupt the-loop sent: nothing of the turn goes on.
    if (what === 'spawned' || what === 'exit' || what === 'stop') turns.delete(target);
    const from = states.get(target);
    const to = nextAgentState(from ?? 'idle', what);
    if (from === to) return;
    states.set(target, to);
    const known = refs.get(target);
    options.onChange?.({ target, ...(known ? { ref: known } : {}), from, to });
    wake(target);
  };

  const current = (target: string): AgentState => states.get(target) ?? 'idle';

  const agentStates: AgentStates = {
    state: (target) => states.get(target),
    signal,
    hook(target, hook, ref) {
      const next = nextAgentTurn(current(target), turns.get(target) ?? noTurn, hook);
      if (next.signal) signal(target, next.signal, ref);
      turns.set(target, next.turn);
    },
    changed,
    spawned: (target, ref) => signal(target, 'spawned', ref),
    ready: (target) => signal(target, 'ready'),
    blocked: (target) => signal(target, 'dialog'),
    exited: (target) => signal(target, 'exit'),
    forget(target) {
      states.delete(target);
      refs.delete(target);
      turns.delete(target);
      wake(target);
    },
    isReady: (target) => {
      const state = current(target);
      return state !== 'starting' && state !== 'blocked';
    },
    async waitUntilReady(target, timeoutMs) {
      await agentStates.waitUntilTypeable(target, { startingTimeoutMs: timeoutMs });
    },
    async waitUntilTypeable(target, wait) {
      const deadline = Date.now() + wait.startingTimeoutMs;
      let told = false;
      for (;;) {
        const state = current(target);
        if (typeable(state) || state === 'exited') return;
        if (wait.signal?.aborted) throw cancelled();
        const reason = heldReason(state);
        if (reason && !told) {
          told = true;
          wait.onHeld?.(reason);
        }
        // Only a start-up has a deadline: a dialog or a question waits for a person.
        const left = state === 'starting' ? deadline - Date.now() : Infinity;
        if (left <= 0) throw notReady(target, wait.startingTimeoutMs, options.tmuxSocket);
        await race(changed(target), left, wait.signal);
      }
    },
  };
  return agentStates;
}

async function race(
  change: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      change,
      new Promise<void>((resolve) => {
        if (Number.isFinite(ms)) timer = setTimeout(resolve, ms);
        if (signal) {
          onAbort = resolve;
          signal.addEventListener('abort', onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

function notReady(target: string, timeoutMs: number, socket: string | undefined): LoopError {
  return new LoopError(
    'delivery_failed',
    `session \`${target}\` did not become ready within ${Math.round(timeoutMs / 1000)} s; ` +
      `look at it with \`${tmuxAttachCommand(target, socket, { readOnly: true })}\``,
  );
}

export function cancelled(): LoopError {
  return new LoopError(
    'delivery_cancelled',
    'the sender stopped waiting before the message was typed; it was not typed',
  );
}

/** The agent states serve keeps: each change is an `agent.state` event, named by ref when known. */
export function recordedAgentStates(
  events: { record(event: string, fields: Record<string, unknown>): void },
  tmuxSocket?: string,
): AgentStates {
  return createAgentStates({
    ...(tmuxSocket ? { tmuxSocket } : {}),
    onChange: ({ target, ref, from, to }) =>
      events.record('agent.state', { ref: ref ?? target, from: from ?? null, to }),
  });
}
