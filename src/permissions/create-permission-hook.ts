import type { PermissionHook } from '../api/routes/session-routes.js';
import type { PermissionRegistry } from './create-permission-registry.js';
import { hookDecision } from './hook-decision.js';
import { readPermissionRequest } from './read-permission-request.js';

/**
 * serve's side of Claude Code's PermissionRequest hook (DESIGN §14): opens a request and holds
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
