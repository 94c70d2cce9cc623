/**
 * tmux answers "this session is not there" in a few fixed ways; any other failure means we do not
 * know, and a caller must never treat "we do not know" as "absent" (it would spawn a second copy
 * or drop a record of a session that is still running).
 */
const absentPatterns = [
  /^can't find session/m,
  /^no such session/m,
  /^can't find pane/m,
  /^can't find window/m,
  // A server with no sessions left (exit-empty off) has no current target to resolve against.
  /^no current target/m,
  /^no server running on /m,
  /^error connecting to .*\(No such file or directory\)/m,
  /^error connecting to .*\(Connection refused\)/m,
];

export type TmuxFailure = 'absent' | 'unknown';

export function classifyTmuxFailure(stderr: string): TmuxFailure {
  return absentPatterns.some((pattern) => pattern.test(stderr)) ? 'absent' : 'unknown';
}
