import type { AgentState } from './agent-state.js';

/**
 * What a harness adapter needs to say about a session it launches: `spawned` when it starts one,
 * `ready` when the session says so (Claude Code's SessionStart hook, or a command's ready
 * pattern). The agent states (agent-states.ts) implement it.
 */
export interface ReadinessTracker {
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
