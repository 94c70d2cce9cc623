import { createRecordStore, type RecordStore, type RecordStoreOptions } from './record-store.js';

/**
 * A record store that keeps every record in memory after the first `list()`, for a folder this
 * process alone writes (the standing records): listing 200 sessions then reads no files. Writes
 * and removals go to disk first and reach the cache only once durable; one that lands while the
 * first load is still reading waits for it, so the load cannot put back an older value.
 */
export function cacheRecordStore<T>(inner: RecordStore<T>): RecordStore<T> {
  let loaded: Promise<Map<string, T>> | undefined;
  const load = (): Promise<Map<string, T>> => {
    loaded ??= inner.list().then((entries) => new Map(entries.map((e) => [e.key, e.value])));
    // A failed first load is not remembered: the next call tries the disk again.
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };

  return {
    async read(key) {
      return loaded ? (await load()).get(key) : inner.read(key);
    },
    async write(key, value) {
      await inner.write(key, value);
      if (loaded) (await load()).set(key, value);
    },
    async remove(key) {
      const removed = await inner.remove(key);
      if (loaded) (await load()).delete(key);
      return removed;
    },
    async list() {
      const records = await load();
      return [...records.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, value]) => ({ key, value }));
    },
  };
}

/** A record store over `options.dir`, cached as above: for the records serve alone writes. */
export function createCachedRecordStore<T>(options: RecordStoreOptions<T>): RecordStore<T> {
  return cacheRecordStore(createRecordStore(options));
}
