/**
 * The thread reply that says an owner is down and its messages wait (docs/design.md §21): once per
 * thread and outage. An outage is known by when its owner was last seen.
 */
export function offlineNotice(options: { readonly now: () => number }) {
  const told = new Set<string>();
  return {
    /** The notice to post, or undefined when this thread was already told of this outage. */
    once(owner: string, thread: string, since: number): string | undefined {
      const key = `${owner}|${thread}|${since}`;
      if (told.has(key)) return undefined;
      told.add(key);
      if (told.size > 10_000) told.clear();
      return offlineText(owner, since, options.now());
    },
  };
}

/** `queued: instance laptop-b is offline since 14:02 UTC; messages wait for it`. */
export function offlineText(owner: string, since: number, now: number): string {
  const at = new Date(since).toISOString();
  const sameDay = at.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  const time = sameDay ? `${at.slice(11, 16)} UTC` : `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
  return `queued: instance ${owner} is offline since ${time}; messages wait for it`;
}
