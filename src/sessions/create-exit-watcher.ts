import type { Logger } from '../log/create-logger.js';
import type { SessionListing, TmuxDriver } from '../tmux/tmux-driver.js';

/** A service whose sessions can end by themselves (standing and work-item sessions). */
export interface ExitAware {
  noticeExits(listing: SessionListing): Promise<void>;
}

export interface ExitWatcher {
  /** One look now; resolves once every service has recorded what it saw. */
  check(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Notices harnesses that exit by themselves (DESIGN §13 `exited`). One listing of the whole server
 * per tick — with the control-mode client a fraction of a millisecond — answers for every session,
 * so nobody has to type into a session to learn it is gone.
 */
export function createExitWatcher(options: {
  readonly driver: TmuxDriver;
  readonly services: readonly ExitAware[];
  readonly intervalMs: number;
  readonly logger: Logger;
}): ExitWatcher {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const check = async (): Promise<void> => {
    const listing = await options.driver.listSessions();
    if (!listing.ok) return;
    await Promise.all(options.services.map((service) => service.noticeExits(listing)));
  };

  const tick = (): void => {
    // One look at a time: a slow tmux must not pile listings up.
    running ??= check()
      .catch((error: unknown) => {
        options.logger.warn(
          { event: 'session.exit_check_failed', err: error },
          'exit check failed',
        );
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    check,
    start() {
      timer ??= setInterval(tick, options.intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
