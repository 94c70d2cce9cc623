/** What the-loop puts in every session it starts (docs/design.md §3.2) so the agent can speak as itself. */
export function sessionEnv(
  env: NodeJS.ProcessEnv,
): { readonly token: string; readonly socketPath: string } | undefined {
  const token = env['THE_LOOP_SESSION_TOKEN'];
  const socketPath = env['THE_LOOP_SOCKET'];
  return token && socketPath ? { token, socketPath } : undefined;
}
