import type { SessionInfo } from '../tmux/tmux-driver.js';

export type StartDecision =
  | { readonly action: 'already-running' }
  | { readonly action: 'spawn'; readonly clearDeadPane: boolean }
  | { readonly action: 'refuse'; readonly reason: 'foreign' | 'unrecorded' | 'tmux-unknown' };

/**
 * What `start` may do, given what tmux shows under the session's target name (docs/design.md §5). A live
 * session is only ever ours when it carries our owner tag and we hold its record; anything else
 * under that name belongs to someone else and is never killed or adopted.
 */
export function decideStart(info: SessionInfo, owner: string, hasRecord: boolean): StartDecision {
  switch (info.state) {
    case 'unknown':
      return { action: 'refuse', reason: 'tmux-unknown' };
    case 'absent':
      return { action: 'spawn', clearDeadPane: false };
    case 'dead':
      return info.owner === owner
        ? { action: 'spawn', clearDeadPane: true }
        : { action: 'refuse', reason: 'foreign' };
    case 'live':
      if (info.owner !== owner) return { action: 'refuse', reason: 'foreign' };
      return hasRecord ? { action: 'already-running' } : { action: 'refuse', reason: 'unrecorded' };
  }
}
