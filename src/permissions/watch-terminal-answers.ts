import type { AgentScreen, ScreenReader } from '../harness/claude-screen.js';
import type { Logger } from '../log/create-logger.js';
import type { PermissionRegistry } from './create-permission-registry.js';
import { createTicker, type Ticker } from '../concurrency/create-ticker.js';

/**
 * Claude Code shows its own dialog while the PermissionRequest hook runs, and a key pressed there
 * decides at once without ending the hook (test/real/FINDINGS.md (g)); after "No" or Escape no hook
 * fires at all. So the screen is the one place that shows a person answered in the terminal: while a
 * session has an open request, it is looked at each tick, and a dialog gone from it twice in a row
 * ends the session's requests as `terminal` (docs/design.md §13 `waiting`, §14).
 */
/** `check()` is one look at every session with an open request. */
export type TerminalAnswerWatcher = Ticker;

/** The dialog appears as the hook starts: a request younger than this is not looked at yet. */
export const dialogGraceMs = 2_000;

/** A session's screen as its harness reads it: its target's reader over one capture of its pane. */
export function screenThrough(
  resolve: (ref: string) => Promise<{ readonly tmuxName: string; readonly screen?: ScreenReader }>,
  capture: (tmuxName: string) => Promise<string>,
): (ref: string) => Promise<AgentScreen | undefined> {
  return async (ref) => {
    const target = await resolve(ref);
    return target.screen?.(await capture(target.tmuxName));
  };
}

/**
 * What one look means for a session's open requests. `gone` counts the looks in a row without a
 * permission dialog; the second one ends them, so one frame caught mid-redraw never does.
 */
export function judgeLook(
  previousGone: number,
  screen: AgentScreen | undefined,
): { gone: number; ended: boolean } {
  // A screen that could not be read says nothing either way.
  if (screen === undefined) return { gone: previousGone, ended: false };
  if (screen.dialog === 'permission') return { gone: 0, ended: false };
  const gone = previousGone + 1;
  return { gone, ended: gone >= 2 };
}

export function watchTerminalAnswers(options: {
  readonly registry: PermissionRegistry;
  /** The session's screen as the harness reads it; undefined when it has none or cannot be read. */
  readonly look: (ref: string) => Promise<AgentScreen | undefined>;
  readonly intervalMs: number;
  readonly logger: Logger;
  readonly now?: () => number;
}): TerminalAnswerWatcher {
  const now = options.now ?? Date.now;
  const goneByRef = new Map<string, number>();

  const refsToLook = (): string[] => {
    const refs = new Set<string>();
    for (const view of options.registry.list()) {
      if (now() - Date.parse(view.requestedAt) >= dialogGraceMs) refs.add(view.ref);
    }
    return [...refs];
  };

  const check = async (): Promise<void> => {
    const refs = refsToLook();
    for (const ref of goneByRef.keys()) if (!refs.includes(ref)) goneByRef.delete(ref);
    await Promise.all(
      refs.map(async (ref) => {
        const screen = await options.look(ref).catch(() => undefined);
        const verdict = judgeLook(goneByRef.get(ref) ?? 0, screen);
        goneByRef.set(ref, verdict.gone);
        if (!verdict.ended) return;
        goneByRef.delete(ref);
        options.logger.info(
          { event: 'permission.answered_in_terminal', ref },
          'the permission dialog left the screen: answered in the terminal',
        );
        options.registry.expireRef(ref, 'terminal');
      }),
    );
  };

  return createTicker(check, options.intervalMs, (error) => {
    options.logger.warn({ event: 'permission.watch_failed', err: error }, 'watch failed');
  });
}
