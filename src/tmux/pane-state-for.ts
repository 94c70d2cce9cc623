import type { PaneState, SessionInfo, SessionListing } from './tmux-driver.js';

/**
 * A session's state from one listing of the whole server. A session under our target name that
 * is not ours is reported as `unknown`: it is not our session's state, whatever tmux says.
 */
export function paneStateFor(listing: SessionListing, name: string, owner: string): PaneState {
  return paneInfoFor(listing, name, owner).state;
}

/** The state and, for a dead pane of ours, its exit status. */
export function paneInfoFor(
  listing: SessionListing,
  name: string,
  owner: string,
): Pick<SessionInfo, 'state' | 'deadStatus'> {
  if (!listing.ok) return { state: 'unknown' };
  const info = listing.sessions.get(name);
  if (!info) return { state: 'absent' };
  if (info.owner !== owner) return { state: 'unknown' };
  return info.deadStatus === undefined
    ? { state: info.state }
    : { state: info.state, deadStatus: info.deadStatus };
}
