/**
 * What a harness adapter needs to say about a session it launches: `spawned` when it starts one,
 * `ready` when the session says so (Claude Code's SessionStart hook, or a command's ready
 * pattern). The agent states (agent-states.ts) implement it.
 */
export interface ReadinessTracker {
  spawned(target: string): void;
  ready(target: string): void;
  forget(target: string): void;
  isReady(target: string): boolean;
  waitUntilReady(target: string, timeoutMs: number): Promise<void>;
}
