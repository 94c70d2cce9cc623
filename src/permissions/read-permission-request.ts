/** What serve takes from a PermissionRequest hook payload; everything else in it is ignored. */
export interface PermissionAsk {
  readonly tool: string;
  readonly toolInput: unknown;
  readonly suggestions: readonly unknown[];
}

/** A tool name as Claude Code writes them (`Bash`, `mcp__server__tool`); anything else is `unknown`. */
const toolPattern = /^[A-Za-z0-9_.:-]{1,120}$/;

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
