/**
 * The names docs/design.md §21 pins for the fleet: streams, subjects, buckets, keys, consumers.
 * The one place they are spelled.
 */
export const fleetStreams = {
  in: { name: 'LOOP_IN', subjects: ['loop.in.>'] },
  gh: { name: 'LOOP_GH', subjects: ['loop.gh'] },
} as const;

export const fleetBuckets = {
  bindings: 'LOOP_BINDINGS',
  sessions: 'LOOP_SESSIONS',
  permissions: 'LOOP_PERMISSIONS',
  instances: 'LOOP_INSTANCES',
  locks: 'LOOP_LOCKS',
} as const;

export type FleetBucket = keyof typeof fleetBuckets;

/** Presence entries and locks live this long unless refreshed. */
export const presenceTtlMs = 30_000;
/** How often a live instance refreshes its presence entry. */
export const presenceRefreshMs = 10_000;

export const instanceSubject = (instance: string): string => `loop.in.${instance}`;
export const githubSubject = 'loop.gh';
export const instanceConsumer = (instance: string): string => `inst-${instance}`;
export const githubConsumer = (instance: string): string => `gh-${instance}`;

/** KV keys allow `[-/_=.a-zA-Z0-9]`; Slack channel ids and timestamps fit. */
export const bindingKey = (channel: string, threadTs: string): string =>
  `slack.${channel}.${threadTs}`;
export const sessionKey = (name: string): string => `standing.${name}`;
export const lockKey = (what: string): string => what.replace(/[^-/_=.a-zA-Z0-9]/g, '_');
