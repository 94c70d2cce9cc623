import type { TmuxVersion } from './parse-tmux-version.js';

/** What tmux says about one of our target names. `unknown` means tmux gave no usable answer. */
export type PaneState = 'live' | 'dead' | 'absent' | 'unknown';

export interface SessionInfo {
  readonly name: string;
  readonly state: PaneState;
  /** The `@the-loop-owner` tag; "" when the session has none (it is not ours). */
  readonly owner: string;
  readonly panePid?: number;
  /** Exit status of a dead pane's process. */
  readonly deadStatus?: number;
}

export type SessionListing =
  | { readonly ok: true; readonly sessions: ReadonlyMap<string, SessionInfo> }
  | { readonly ok: false; readonly reason: string };

export interface SpawnSpec {
  readonly name: string;
  readonly cwd: string;
  /** Executed directly, never through a shell. */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Removed (`env -u`) before the command runs, whatever the tmux server's global environment holds. */
  readonly unsetEnv?: readonly string[];
  /**
   * A shell file of `export NAME='value'` lines the command sources first, then removes: the
   * way to pass variables that must not appear in any argv (see envFileText).
   */
  readonly envFile?: string;
  /** Written to the `@the-loop-owner` option of the new session. */
  readonly owner: string;
  readonly width?: number;
  readonly height?: number;
}

export interface TerminateOptions {
  readonly graceMs: number;
}

/**
 * The one boundary to tmux. Every method addresses a session exactly, and every method that acts
 * on a session (paste, keys, terminate) checks our owner tag inside the same tmux command that
 * acts, so a session that is not ours is never touched.
 */
export interface TmuxDriver {
  version(): Promise<TmuxVersion>;
  probe(name: string): Promise<SessionInfo>;
  /** One tmux call for every session on the server. */
  listSessions(): Promise<SessionListing>;
  /**
   * The names in the server's global environment, which every new session starts with; none when
   * no server runs yet (the one spawn starts gets tmux's own environment).
   */
  globalEnvironmentNames(): Promise<readonly string[]>;
  spawn(spec: SpawnSpec): Promise<void>;
  paste(name: string, owner: string, text: string): Promise<void>;
  sendKeys(name: string, owner: string, keys: readonly string[]): Promise<void>;
  capture(name: string): Promise<string>;
  /** How many tmux clients are attached to the session (a person may be typing in it). */
  attachedClients(name: string): Promise<number>;
  /** SIGTERM to the pane's process group, a grace period, SIGKILL, then kill-session. */
  terminate(name: string, owner: string, options: TerminateOptions): Promise<void>;
  /** Removes a session whose pane is dead (ours only). */
  clearDead(name: string, owner: string): Promise<void>;
}
