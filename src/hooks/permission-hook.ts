import type { PermissionRegistry } from '../permissions/create-permission-registry.js';
import type { PermissionAsk } from '../permissions/permission-types.js';
import { hookDecision } from './hook-answer.js';

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
export function createPermissionHook(
  registry: Pick<PermissionRegistry, 'open' | 'expire'>,
): PermissionHook {
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

/** A tool name as Claude Code writes them (`Bash`, `mcp__server__tool`); anything else is `unknown`. */
const toolPattern = /^[A-Za-z0-9_.:-]{1,120}$/;

/** What serve takes from a PermissionRequest hook payload; everything else in it is ignored. */
export function readPermissionRequest(payload: Readonly<Record<string, unknown>>): PermissionAsk {
  const tool = payload['tool_name'];
  const suggestions = payload['permission_suggestions'];
  return {
    tool: typeof tool === 'string' && toolPattern.test(tool) ? tool : 'unknown',
    toolInput: payload['tool_input'] ?? {},
    suggestions: Array.isArray(suggestions)
      ? suggestions.filter((entry) => typeof entry === 'object' && entry !== null)
      : [],
  };
}
