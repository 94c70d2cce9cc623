import type { HarnessConfig } from '../config/types.js';
import { readClaudeScreen, type ScreenReader } from './claude-screen.js';

/** What the delivery core must know of a harness to type into it. */
export interface HarnessTraits {
  /** Agent harnesses get framed text; a plain shell gets the text as it is. */
  readonly agent: boolean;
  /** The harness reports each prompt it receives (Claude Code's UserPromptSubmit hook). */
  readonly confirms: boolean;
  /** Reads its screen (dialogs, the input box); only harnesses whose screen is known have one. */
  readonly screen?: ScreenReader;
}

/** One answer for every kind of session, standing or work item. */
export function harnessTraits(harness: HarnessConfig | undefined): HarnessTraits {
  if (harness?.kind === 'claude') {
    return { agent: harness.agent, confirms: true, screen: readClaudeScreen };
  }
  return { agent: harness?.agent ?? false, confirms: false };
}
