export interface TmuxVersion {
  readonly major: number;
  readonly minor: number;
  readonly raw: string;
}

/** `tmux 3.3a`, `tmux next-3.5`, `tmux master` → comparable numbers (unknown builds count as new). */
export function parseTmuxVersion(output: string): TmuxVersion {
  const raw = output.trim();
  const match = /(\d+)\.(\d+)/.exec(raw);
  if (!match) return { major: 99, minor: 0, raw };
  return { major: Number(match[1]), minor: Number(match[2]), raw };
}

export function isAtLeast(version: TmuxVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}

/** `new-session -e` arrived in tmux 3.2; older servers get an `env NAME=value` prefix instead. */
export function supportsSessionEnv(version: TmuxVersion): boolean {
  return isAtLeast(version, 3, 2);
}

/**
 * From 3.2 the command an `if-shell` runs answers inside the control client's own blocks; before,
 * the owner check's "not ours" would be invisible to a control client.
 */
export function supportsControlClient(version: TmuxVersion): boolean {
  return isAtLeast(version, 3, 2);
}
