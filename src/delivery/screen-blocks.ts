import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { screenHead, type ScreenReader } from '../harness/claude-screen.js';
import type { AgentStates } from './agent-states.js';

/** A session whose screen the-loop could not read. */
export interface UnreadableSession {
  readonly tmuxName: string;
  /** The session's ref, for the notice; the tmux name when unknown. */
  readonly ref?: string;
}

export interface ScreenBlocks {
  /**
   * The screen showed neither the input box nor a known dialog for a few seconds: the session is
   * `blocked` (docs/design.md §13) and its people are told once, quoting the screen. It stays
   * blocked, with nothing typed, until the input box is back.
   */
  unreadable(session: UnreadableSession, capture: string, reader: ScreenReader): void;
  /** The quoted first lines of what blocks the session now; undefined when nothing does. */
  reason(tmuxName: string): readonly string[] | undefined;
}

/**
 * The unreadable-screen blocks of serve. Both watchers of a screen — the start-up watch and the
 * input-box steps of a delivery — report here, so a session is told once per block, and one
 * poller per block (not a delivery that its sender may abandon) notices the box come back.
 */
export function createScreenBlocks(options: {
  readonly driver: TmuxDriver;
  readonly states: AgentStates;
  readonly logger: Logger;
  /** Hears each block once, with the screen's first lines (to tell the thread or issue). */
  readonly onBlocked?: (session: UnreadableSession, head: readonly string[]) => void;
  readonly pollMs?: number;
}): ScreenBlocks {
  const { driver, states, logger } = options;
  const pollMs = options.pollMs ?? 500;
  const blocked = new Map<string, readonly string[]>();

  const watch = async (tmuxName: string, reader: ScreenReader): Promise<void> => {
    try {
      for (;;) {
        await delay(pollMs);
        const state = states.state(tmuxName);
        if (state !== 'blocked') return;
        const pane = (await driver.probe(tmuxName)).state;
        if (pane === 'dead') {
          states.exited(tmuxName);
          return;
        }
        if (pane === 'absent') return;
        if (reader(await driver.capture(tmuxName)).box !== undefined) {
          logger.info({ event: 'harness.screen_readable', target: tmuxName }, 'input box is back');
          states.signal(tmuxName, 'readable');
          return;
        }
      }
    } catch (error) {
      logger.warn(
        { event: 'harness.screen_watch_failed', target: tmuxName, err: error },
        'unreadable screen watch failed',
      );
    } finally {
      blocked.delete(tmuxName);
    }
  };

  return {
    unreadable(session, capture, reader) {
      if (blocked.has(session.tmuxName)) return;
      const head = screenHead(capture);
      blocked.set(session.tmuxName, head);
      states.signal(session.tmuxName, 'unreadable', session.ref);
      logger.warn(
        { event: 'harness.screen_unreadable', target: session.tmuxName },
        'the screen shows no input box and no known dialog; nothing is typed',
      );
      options.onBlocked?.(session, head);
      void watch(session.tmuxName, reader);
    },
    reason: (tmuxName) => blocked.get(tmuxName),
  };
}
