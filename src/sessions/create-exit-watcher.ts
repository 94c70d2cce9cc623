import type { Logger } from '../log/create-logger.js';
import type { SessionListing, TmuxDriver } from '../tmux/tmux-driver.js';
import { createTicker, type Ticker } from '../concurrency/create-ticker.js';

/** A session kind whose sessions can end by themselves (the standing and work-item services). */
export interface ExitAware {
  /** Whether any of its sessions is recorded as running (otherwise tmux need not be asked). */
  hasRunning(): Promise<boolean>;
  noticeExits(listing: SessionListing): Promise<void>;
}

/** `check()` is one look now; it resolves once every kind has recorded what it saw. */
export type ExitWatcher = Ticker;

/**
 * Notices harnesses that exit by themselves (docs/design.md §13 `exited`). One listing of the whole server
 * per tick — with the control-mode client a fraction of a millisecond — answers for every session,
 * so nobody has to type into a session to learn it is gone.
 */
export function createExitWatcher(options: {
  readonly driver: TmuxDriver;
  readonly kinds: readonly ExitAware[];
  readonly intervalMs: number;
  readonly logger: Logger;
}): ExitWatcher {
  const check = async (): Promise<void> => {
    // Nothing running, nothing to notice: do not start a tmux server just to list it.
    const running = await Promise.all(options.kinds.map((kind) => kind.hasRunning()));
    if (!running.some(Boolean)) return;
    const listing = await options.driver.listSessions();
    if (!listing.ok) return;
    await Promise.all(options.kinds.map((kind) => kind.noticeExits(listing)));
  };

  // One look at a time: a slow tmux must not pile listings up.
  return createTicker(check, options.intervalMs, (error) => {
    options.logger.warn({ event: 'session.exit_check_failed', err: error }, 'exit check failed');
  });
}
