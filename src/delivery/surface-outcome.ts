/**
 * What became of one surface (Slack, GitHub) at startup: on (with notes on parts of it that are
 * off), or off. Each surface's loader says it; the status report's service rows show it.
 */
export type SurfaceOutcome =
  | { readonly on: true; readonly detail: string; readonly notes: readonly string[] }
  | { readonly on: false; readonly reason: string };
