/**
 * One `capture-pane` per refresh however many pages watch a session (docs/design.md §19): a
 * capture younger than `maxAgeMs` is handed to every viewer, and viewers that ask while one is
 * running wait for that one. Nothing runs when nobody asks, so a pane nobody watches is never
 * captured; entries nobody asked for within a minute are dropped.
 */
export interface TerminalCache {
  read(ref: string): Promise<string>;
}

interface Entry {
  readonly at: number;
  readonly text: Promise<string>;
}

export function createTerminalCache(options: {
  readonly capture: (ref: string) => Promise<string>;
  readonly maxAgeMs: number;
  readonly now?: () => number;
}): TerminalCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const dropAfterMs = Math.max(60_000, options.maxAgeMs * 2);
  return {
    read(ref) {
      const at = now();
      for (const [key, entry] of entries) if (at - entry.at > dropAfterMs) entries.delete(key);
      const cached = entries.get(ref);
      if (cached !== undefined && at - cached.at < options.maxAgeMs) return cached.text;
      const text = options.capture(ref);
      entries.set(ref, { at, text });
      // A failed capture is not kept: the next viewer tries again.
      text.catch(() => {
        if (entries.get(ref)?.text === text) entries.delete(ref);
      });
      return text;
    },
  };
}
