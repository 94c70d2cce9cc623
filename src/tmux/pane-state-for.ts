import type { PaneState, SessionListing } from './tmux-driver.js';

/**
 * A session's state from one listing of the whole server. A session under our target name that
 * is not ours is reported as `unknown`: it is not our session's state, whatever tmux says.
 */
export function paneStateFor(listing: SessionListing, name: string, owner: string): PaneState {
  if (!listing.ok) return 'unknown';
  const info = listing.sessions.get(name);
  if (!info) return 'absent';
  return info.owner === owner ? info.state : 'unknown';
}
