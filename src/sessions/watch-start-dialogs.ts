import { setTimeout as delay } from 'node:timers/promises';
import type { ReadinessTracker } from '../delivery/readiness-tracker.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import type { AgentScreen, ScreenReader } from '../harness/claude-screen.js';

/** The dialogs a harness can show before it is ready: a person must answer them. */
export type StartDialog = Extract<NonNullable<AgentScreen['dialog']>, 'trust' | 'api-key'>;

export interface StartDialogOptions {
  readonly driver: TmuxDriver;
  readonly readiness: ReadinessTracker;
  readonly tmuxName: string;
  readonly screen: ScreenReader;
  /** How long to look for a dialog while the harness has not said it is ready. */
  readonly timeoutMs: number;
  /** Hears the dialog once, when it first shows (to tell the session's thread or issue). */
  readonly onDialog?: (dialog: StartDialog) => void;
  readonly logger: Logger;
  readonly pollMs?: number;
}

/**
 * Claude Code asks whether to trust an unknown folder (or use a custom API key) before its
 * SessionStart hook, and no hook says so. While the session has not said it is ready the screen is
 * looked at; a dialog makes the session `blocked`, so nothing is typed into it (a key would answer
 * it) and its boot prompt waits for the SessionStart that follows a person's answer, with no
 * deadline. A pane that dies meanwhile (the person picked "No, exit") is reported as exited.
 */
export async function watchStartDialogs(options: StartDialogOptions): Promise<void> {
  const { driver, readiness, tmuxName, logger } = options;
  const pollMs = options.pollMs ?? 250;
  const started = Date.now();
  let told = false;
  try {
    for (;;) {
      const state = readiness.state(tmuxName);
      if (state !== 'starting' && state !== 'blocked') return;
      const pane = (await driver.probe(tmuxName)).state;
      if (pane === 'dead') {
        readiness.exited(tmuxName);
        return;
      }
      if (pane === 'absent') return;
      if (!told && Date.now() - started > options.timeoutMs) return;
      const dialog = startDialog(options.screen(await driver.capture(tmuxName)));
      if (dialog && !told) {
        told = true;
        readiness.blocked(tmuxName);
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
