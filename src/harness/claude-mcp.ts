/**
 * the-loop's MCP server in every Claude Code session (docs/design.md §20): a `--mcp-config` file
 * naming this the-loop's own binary with `mcp`, and an allow rule for its tools in the
 * session's settings, so an agent lists and messages the other sessions without a dialog.
 * `harnesses.<name>.mcp: false` turns both off.
 */

/** The server's name in Claude Code; its tools are `mcp__the-loop__<tool>`. */
export const mcpServerName = 'the-loop';

/** Claude Code's rule for every tool of the server. */
export const mcpAllowRule = `mcp__${mcpServerName}__*`;

/** The `--mcp-config` file: `loopBin` is the absolute path of this the-loop's bin/the-loop. */
export function claudeMcpConfig(loopBin: string): Record<string, unknown> {
  return { mcpServers: { [mcpServerName]: { command: loopBin, args: ['mcp'] } } };
}

/** The settings with the server's tools allowed, beside whatever rules they already hold. */
export function allowMcpTools(settings: Record<string, unknown>): Record<string, unknown> {
  const permissions = (settings['permissions'] ?? {}) as Record<string, unknown>;
  const allow = Array.isArray(permissions['allow']) ? (permissions['allow'] as unknown[]) : [];
  return { ...settings, permissions: { ...permissions, allow: [...allow, mcpAllowRule] } };
}
