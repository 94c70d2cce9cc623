/**
 * The only two ways the-loop names a tmux target. A bare `-t name` prefix-matches (`sup` would
 * hit `sup-2`); `=name` matches the session exactly and `=name:` its current pane.
 */
export function sessionTarget(name: string): string {
  return `=${name}`;
}

export function paneTarget(name: string): string {
  return `=${name}:`;
}

/** tmux session names cannot hold `.` or `:`, and ours never hold anything else odd either. */
export function assertTargetName(name: string): void {
  if (!/^[a-z0-9][a-z0-9-]{0,119}$/.test(name)) {
    throw new Error(`refusing tmux target name ${JSON.stringify(name)}`);
  }
}
