/** Where a message came from; enough to frame it for the agent and to report back. */
export type Origin =
  /** the-loop itself: the boot directive and brief a session starts with. */
  | { readonly surface: 'system'; readonly actor: 'the-loop' }
  | { readonly surface: 'cli'; readonly actor: string }
  | { readonly surface: 'slack'; readonly actor: string; readonly channel: string }
  | { readonly surface: 'github'; readonly actor: string; readonly workItem: string };

export type Surface = Origin['surface'];
