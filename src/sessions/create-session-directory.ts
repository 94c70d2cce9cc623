import { parseWorkItemRef, standingRef, standingTarget, workItemTarget } from '../refs.js';
import type { SessionTokens, TokenOwner } from './session-tokens.js';

/**
 * Who a session token belongs to. A session being started is found in the tokens minted for it
 * (its hooks may call before its record is written); otherwise the standing records are asked,
 * then the work-item records. The services are plain lookups, so this folder stays below them.
 */
export function createSessionDirectory(options: {
  readonly tokens: SessionTokens;
  readonly standing: { nameForToken(token: string): Promise<string | undefined> };
  readonly workItems: { refForToken(token: string): Promise<string | undefined> };
}): { sessionForToken(token: string): Promise<TokenOwner | undefined> } {
  const { tokens, standing, workItems } = options;
  return {
    async sessionForToken(token) {
      const started = tokens.find(token);
      if (started) return started;
      const name = await standing.nameForToken(token);
      if (name) return { ref: standingRef(name), tmuxName: standingTarget(name) };
      const ref = await workItems.refForToken(token);
      const item = ref ? parseWorkItemRef(ref) : undefined;
      return ref && item ? { ref, tmuxName: workItemTarget(item) } : undefined;
    },
  };
}
