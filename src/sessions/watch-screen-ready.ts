import { setTimeout as delay } from 'node:timers/promises';
import type { AgentStateSignals } from '../delivery/agent-states.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';

export interface ScreenReadyOptions {
  readonly driver: TmuxDriver;
  readonly states: AgentStateSignals;
  readonly tmuxName: string;
  readonly pattern?: RegExp;
  readonly settleMs: number;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * For programs that cannot say they are ready: ready once the screen matches the pattern, or after
 * the settle time when there is none. A pane that dies releases its waiters (their paste then
 * fails with a clear reason); a pattern that never shows is logged and then treated as ready,
 * rather than holding messages forever.
 */
export async function watchScreenReady(options: ScreenReadyOptions): Promise<void> {
  const { driver, states, tmuxName, logger } = options;
  const started = Date.now();
  try {
    for (;;) {
      const elapsed = Date.now() - started;
      const state = (await driver.probe(tmuxName)).state;
      if (state === 'dead' || state === 'absent') break;
      if (!options.pattern && elapsed >= options.settleMs) break;
      if (options.pattern && options.pattern.test(await driver.capture(tmuxName))) break;
      if (elapsed >= options.timeoutMs) {
        logger.warn(
          { event: 'harness.ready_pattern_timeout', target: tmuxName },
          'ready pattern never appeared; delivering anyway',
        );
        break;
      }
      await delay(options.pattern ? 100 : Math.min(50, options.settleMs));
    }
  } catch (error) {
    logger.warn(
      { event: 'harness.ready_watch_failed', target: tmuxName, err: error },
      'ready watch failed',
    );
  } finally {
    states.ready(tmuxName);
  }
}
