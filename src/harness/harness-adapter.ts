import type { HarnessConfig } from '../config/types.js';
import type { ScreenReader } from './claude-screen.js';

/** Everything an adapter needs to decide how to launch one session. */
export interface LaunchContext {
  readonly tmuxName: string;
  readonly harness: HarnessConfig;
  /** Extra arguments from the config (never from Slack or the API). */
  readonly args: readonly string[];
  /** Resume this conversation when set. */
  readonly conversationId?: string;
  /** argv that runs `the-loop` (e.g. [node, /abs/bin/the-loop]); hooks call `<this> hook <event>`. */
  readonly loopCommand: readonly string[];
  /** Folder for per-session harness files (Claude Code settings). */
  readonly harnessDir: string;
}

export type Readiness =
  /** The harness says when it is ready (Claude Code's SessionStart hook). */
  | {
      readonly kind: 'hook';
      /** Reads the screen for the dialogs it may show before the hook (Claude Code's trust dialog). */
      readonly startDialogs?: ScreenReader;
    }
  /** Ready when capture-pane matches, or after a settle time when there is no pattern. */
  | { readonly kind: 'screen'; readonly pattern?: RegExp; readonly settleMs: number };

export interface LaunchPlan {
  readonly argv: readonly string[];
  /** The conversation the harness will be in; undefined for harnesses without one. */
  readonly conversationId?: string;
  /** Launched with the harness's resume arguments. */
  readonly resuming: boolean;
  readonly readiness: Readiness;
  /** Reports each received prompt (UserPromptSubmit), so deliveries can be confirmed. */
  readonly confirms: boolean;
  /** The version of the hooks this launch installs; harnesses without hooks have none. */
  readonly hooksVersion?: string;
}

/** An adapter is a plain object: a kind and a planning function. */
export interface HarnessAdapter {
  readonly kind: HarnessConfig['kind'];
  plan(context: LaunchContext): Promise<LaunchPlan>;
}
