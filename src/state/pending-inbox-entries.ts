/** What the inbox folder held when it was read, decoded; files that could not be used are absent. */
export interface InboxFolderContents<T> {
  readonly batches: ReadonlyArray<{
    readonly id: string;
    readonly keys: readonly string[];
    readonly entries: ReadonlyArray<{ readonly key: string; readonly value: T }>;
  }>;
  /** Done keys by batch id; a batch without a (usable) done file has none done. */
  readonly done: ReadonlyMap<string, ReadonlySet<string>>;
  readonly legacy: ReadonlyArray<{ readonly key: string; readonly value: T }>;
}

/** Every entry not yet done, batches and legacy files together, in key (= arrival) order. */
export function pendingInboxEntries<T>(
  folder: InboxFolderContents<T>,
): Array<{ key: string; value: T }> {
  const fromBatches = folder.batches.flatMap((batch) => {
    const done = folder.done.get(batch.id);
    return batch.entries.filter((entry) => !done?.has(entry.key));
  });
  return [...fromBatches, ...folder.legacy]
    .map(({ key, value }) => ({ key, value }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
