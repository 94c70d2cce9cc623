import type { PermissionRegistry } from './create-permission-registry.js';
import { hookDecision } from './hook-decision.js';
import { readPermissionRequest } from './read-permission-request.js';

/** The one hook that blocks (docs/design.md §14): it answers with the JSON Claude Code reads on stdout. */
export type PermissionHook = (
  session: { ref: string; tmuxName: string },
  payload: Record<string, unknown>,
  signal: AbortSignal | undefined,
) => Promise<Record<string, unknown>>;

/**
 * serve's side of Claude Code's PermissionRequest hook (docs/design.md §14): opens a request and holds
 * the hook's HTTP request until it is decided or expires. When the hook goes away first, a person
 * answered the dialog in the terminal (Claude Code kills the hook then), so the request ends as
 * `terminal` and nobody can decide it any more.
 */
export function createPermissionHook(registry: PermissionRegistry): PermissionHook {
  return async (session, payload, signal) => {
    const { request, outcome } = registry.open(session.ref, readPermissionRequest(payload));
    const gone = (): void => void registry.expire(request.id, 'terminal');
    if (signal?.aborted) gone();
    else signal?.addEventListener('abort', gone, { once: true });
    try {
      return hookDecision(request, await outcome);
    } finally {
      signal?.removeEventListener('abort', gone);
    }
  };
}
