import { setTimeout as delay } from 'node:timers/promises';
import type { AgentStateSignals } from '../delivery/agent-states.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { isUnreadable, type AgentScreen, type ScreenReader } from '../harness/claude-screen.js';

/** The dialogs a harness can show before it is ready: a person must answer them. */
export type StartDialog = Extract<NonNullable<AgentScreen['dialog']>, 'trust' | 'api-key'>;

export interface StartDialogOptions {
  readonly driver: TmuxDriver;
  readonly states: AgentStateSignals;
  readonly tmuxName: string;
  readonly screen: ScreenReader;
  /** How long to look for a dialog while the harness has not said it is ready. */
  readonly timeoutMs: number;
  /** Hears the dialog once, when it first shows (to tell the session's thread or issue). */
  readonly onDialog?: (dialog: StartDialog) => void;
  /**
   * How long the screen may show neither the input box nor a known dialog before it counts as
   * unreadable (docs/design.md §13, §23); then `onUnreadable` hears it, once.
   */
  readonly unknownScreenMs?: number;
  readonly onUnreadable?: (capture: string) => void;
  readonly logger: Logger;
  readonly pollMs?: number;
}

/**
 * Claude Code asks whether to trust an unknown folder (or use a custom API key) before its
 * SessionStart hook, and no hook says so. While the session has not said it is ready the screen is
 * looked at; a dialog makes the session `blocked`, so nothing is typed into it (a key would answer
 * it) and its boot prompt waits for the SessionStart that follows a person's answer, with no
 * deadline. A pane that dies meanwhile (the person picked "No, exit") is reported as exited. A
 * screen that shows something, but neither the input box nor a dialog the-loop knows, is
 * unreadable after a few seconds: it is handed on (the session becomes `blocked` the same way),
 * and no key is ever pressed into it.
 */
export async function watchStartDialogs(options: StartDialogOptions): Promise<void> {
  const { driver, states, tmuxName, logger } = options;
  const pollMs = options.pollMs ?? 250;
  const started = Date.now();
  let told = false;
  let unknownSince: number | undefined;
  try {
    for (;;) {
      const state = states.state(tmuxName);
      if (state !== 'starting' && state !== 'blocked') return;
      const pane = (await driver.probe(tmuxName)).state;
      if (pane === 'dead') {
        states.exited(tmuxName);
        return;
      }
      if (pane === 'absent') return;
      if (!told && Date.now() - started > options.timeoutMs) return;
      const capture = await driver.capture(tmuxName);
      const screen = options.screen(capture);
      const dialog = startDialog(screen);
      if (!told && options.onUnreadable && isUnreadable(capture, screen)) {
        unknownSince ??= Date.now();
        if (Date.now() - unknownSince >= (options.unknownScreenMs ?? 5_000)) {
          // The screen blocks from here on; nothing is typed until the input box is back.
          options.onUnreadable(capture);
          return;
        }
      } else {
        unknownSince = undefined;
      }
      if (dialog && !told) {
        told = true;
        states.blocked(tmuxName);
        logger.warn(
          { event: 'harness.start_dialog', target: tmuxName, dialog },
          'a dialog waits for a person before the harness starts',
        );
        options.onDialog?.(dialog);
      }
      await delay(pollMs);
    }
  } catch (error) {
    logger.warn(
      { event: 'harness.start_dialog_watch_failed', target: tmuxName, err: error },
      'start dialog watch failed',
    );
  }
}

function startDialog(screen: AgentScreen): StartDialog | undefined {
  return screen.dialog === 'trust' || screen.dialog === 'api-key' ? screen.dialog : undefined;
}
