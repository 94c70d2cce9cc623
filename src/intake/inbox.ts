import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { errnoCode } from '../errors.js';
import { createGroupCommit } from '../state/group-commit.js';
import {
  batchFileName,
  doneFileName,
  encodeBatch,
  encodeDone,
  encodeMark,
  legacyFileName,
  markFileName,
  pendingInboxEntries,
} from './inbox-file-format.js';
import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import { createInboxFolderReader, type InboxFolderRead } from './inbox-folder.js';
import { syncDir, writeFileAtomic } from '../state/write-file-atomic.js';
import { writeFileAtomicSync } from '../state/write-file-atomic-sync.js';

/**
 * Accepted, not yet delivered messages (docs/design.md §9). A message is written here before its origin
 * is acknowledged and removed only once it has been handled, so a crash between the two loses
 * nothing: the restarted daemon handles what is left, oldest first.
 *
 * Messages arriving together share one fsync-ed batch file (group commit), so a burst of a
 * thousand costs a few writes rather than a thousand; see inbox-file-format.ts for the files.
 */
export interface InboxEntry<T> {
  readonly key: string;
  readonly value: T;
  /** What its delivery wrote down before a restart (mark()), as read back from disk. */
  readonly mark?: unknown;
}

export interface Inbox<T> {
  add(value: T): Promise<InboxEntry<T>>;
  /** Everything still waiting, in arrival order. */
  pending(): Promise<Array<InboxEntry<T>>>;
  done(key: string): Promise<void>;
  /**
   * Writes down, durably, what the entry's delivery is about to do (its Enter), for a restart
   * to find with the entry in pending(). It goes when the entry is done.
   */
  mark(key: string, mark: unknown): Promise<void>;
}

interface Batch {
  readonly id: string;
  readonly keys: readonly string[];
  /** Handled, in memory: the next write of the batch's done list carries all of them. */
  readonly done: Set<string>;
  /** Writes `done` (or removes the batch once all are done); calls that come together share one. */
  readonly persist: (item: undefined) => Promise<void>;
}

type Place = { readonly kind: 'batch'; readonly batch: Batch } | { readonly kind: 'legacy' };

export function createInbox<T>(options: {
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  readonly logger: Logger;
  readonly clock?: () => number;
  /**
   * Write batches with synchronous calls (writeFileAtomicSync): for an intake whose
   * acknowledgements must not wait behind the thread pool's queue (Slack, docs/design.md §10). Off, the
   * loop stays free while a batch is written, which serves many concurrent requests better.
   */
  readonly synchronousWrites?: boolean;
}): Inbox<T> {
  const { dir, validate } = options;
  const clock = options.clock ?? Date.now;
  const readFolder = createInboxFolderReader({ dir, validate, logger: options.logger });
  // A write at least every 10 ms while a burst is being read: the first frames' acknowledgements
  // do not wait for the last frame to be parsed (state/group-commit.ts).
  const commit = createGroupCommit(writeBatch, { maxDelayMs: 10 });
  // An old one-file entry is removed, then the removal made durable, one done() at a time.
  const serially = createKeyedQueue();
  // Where each entry not yet done lives, so done() touches one file instead of listing the folder.
  const places = new Map<string, Place>();
  // A folder read may have seen a file removed while it ran; it must not bring it back to `places`.
  let readsRunning = 0;
  const removedDuringRead = new Set<string>();
  let dirEnsured = false;
  /** Entries with a mark on disk, so done() removes only files that are there. */
  const marked = new Set<string>();
  let last = 0;
  let sequence = 0;

  // Keys sort in arrival order: milliseconds, then a counter within the same millisecond, then
  // the pid so two processes sharing a root cannot collide.
  const nextKey = (): string => {
    // A clock stepping backwards must not reorder what arrives after it.
    const now = Math.max(clock(), last);
    sequence = now === last ? sequence + 1 : 0;
    last = now;
    return `${String(now).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${process.pid}`;
  };

  const fileOf = (name: string): string => path.join(dir, name);

  async function ensureDir(): Promise<void> {
    await ensurePrivateDir(dir);
    dirEnsured = true;
  }

  function remember(batch: Batch): void {
    for (const key of batch.keys) places.set(key, { kind: 'batch', batch });
  }

  function forget(name: string, keys: readonly string[]): void {
    for (const key of keys) places.delete(key);
    if (readsRunning > 0) removedDuringRead.add(name);
  }

  async function writeBatch(entries: ReadonlyArray<InboxEntry<T>>): Promise<void> {
    const id = entries[0]?.key;
    if (id === undefined) return;
    const name = batchFileName(id);
    const data = encodeBatch(entries);
    const keys = entries.map((entry) => entry.key);
    remember(newBatch(id, keys, new Set()));
    try {
      if (!dirEnsured) await ensureDir();
      const write = async (): Promise<void> => {
        if (options.synchronousWrites) writeFileAtomicSync(fileOf(name), data);
        else await writeFileAtomic(fileOf(name), data);
      };
      await write().catch(async (error: unknown) => {
        if (errnoCode(error) !== 'ENOENT') throw error;
        // Someone removed the folder under us; recreate it once rather than lose the burst.
        await ensurePrivateDir(dir);
        await write();
      });
    } catch (error) {
      // The rename may have landed before the failure; its messages were refused, and their
      // origins will send them again, so they must not also come back from here. The file goes
      // before the memory of it, so a folder read in between cannot bring the batch back.
      await unlink(fileOf(name)).catch(() => undefined);
      forget(name, keys);
      const reason = error instanceof Error ? error.message : String(error);
      throw new LoopError(
        'internal',
        `could not record ${entries.length} message(s) in ${fileOf(name)} (${reason}): ` +
          `check that ${dir} is writable and its disk is not full`,
        { file: fileOf(name), cause: errnoCode(error) },
      );
    }
  }

  function newBatch(id: string, keys: readonly string[], done: Set<string>): Batch {
    const batch: Batch = {
      id,
      keys,
      done,
      // Handled messages of one batch finish close together (a burst, concurrent webhooks): one
      // rewrite of its done list carries all that finished while the last one was being written.
      persist: createGroupCommit<undefined>(() => persistDone(batch)),
    };
    return batch;
  }

  async function markDone(batch: Batch, key: string): Promise<void> {
    const place = places.get(key);
    if (batch.done.has(key) || place?.kind !== 'batch' || place.batch !== batch) return;
    // In memory first: if this write fails, the next one for the batch still carries the key.
    batch.done.add(key);
    await batch.persist(undefined);
  }

  async function persistDone(batch: Batch): Promise<void> {
    // Already removed by an earlier write of this batch: nothing left to record.
    const place = places.get(batch.id);
    if (place?.kind !== 'batch' || place.batch !== batch) return;
    try {
      if (!batch.keys.every((each) => batch.done.has(each))) {
        await writeFileAtomic(fileOf(doneFileName(batch.id)), encodeDone(batch.done));
        return;
      }
      await removeIfPresent(batchFileName(batch.id));
      // The done list may go only once the batch's removal is durable: the other way round, a
      // crash could bring back entries already handled.
      await syncDir(dir);
      forget(batchFileName(batch.id), batch.keys);
      // Left behind, it is an orphan that the next read of the folder removes.
      await removeIfPresent(doneFileName(batch.id)).catch(() => undefined);
    } catch (error) {
      // The messages were handled; failing here would tell their senders they were not. At worst
      // a restart before the next successful write hands them on once more.
      options.logger.warn(
        {
          event: 'inbox.done_unrecorded',
          handled: batch.done.size,
          file: fileOf(batchFileName(batch.id)),
          err: error,
        },
        'could not record handled messages; they may be handled again after a restart: check the disk has room',
      );
    }
  }

  async function removeLegacy(key: string): Promise<void> {
    if (places.get(key)?.kind !== 'legacy') return;
    await removeIfPresent(legacyFileName(key));
    await syncDir(dir);
    forget(legacyFileName(key), [key]);
  }

  async function removeIfPresent(name: string): Promise<void> {
    await unlink(fileOf(name)).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
  }

  /** Reads the folder and learns where the entries it holds live. */
  async function readAndRemember(): Promise<InboxFolderRead<T>> {
    readsRunning += 1;
    try {
      const folder = await readFolder();
      for (const { id, keys } of folder.batches) {
        if (places.has(id) || removedDuringRead.has(batchFileName(id))) continue;
        remember(newBatch(id, keys, new Set(folder.done.get(id))));
      }
      for (const { key } of folder.legacy) {
        if (places.has(key) || removedDuringRead.has(legacyFileName(key))) continue;
        places.set(key, { kind: 'legacy' });
      }
      for (const id of folder.orphanDone) {
        await removeIfPresent(doneFileName(id)).catch(() => undefined);
      }
      return folder;
    } finally {
      readsRunning -= 1;
      if (readsRunning === 0) removedDuringRead.clear();
    }
  }

  return {
    async add(value) {
      // Before any await: the key order is the call order.
      const key = nextKey();
      if (!validate(value)) {
        throw new LoopError('internal', `refusing to record an invalid message in ${dir}`, { key });
      }
      await commit({ key, value });
      return { key, value };
    },

    async pending() {
      // Called once before the origin connects: the folder then exists before the first burst,
      // whose first write would otherwise wait for this mkdir behind the thread pool (docs/design.md §10).
      await ensureDir();
      const folder = await readAndRemember();
      const entries = pendingInboxEntries(folder);
      const pending = new Set(entries.map((entry) => entry.key));
      for (const key of folder.marks.keys()) {
        if (pending.has(key)) marked.add(key);
        // Its entry is done (a crash between the two removals): of no use any more.
        else await removeIfPresent(markFileName(key)).catch(() => undefined);
      }
      return entries;
    },

    async mark(key, mark) {
      if (!dirEnsured) await ensureDir();
      await writeFileAtomic(fileOf(markFileName(key)), encodeMark(mark));
      marked.add(key);
    },

    async done(key) {
      // An entry this inbox has not seen yet (it was added by an earlier process and pending()
      // was not called) is looked for on disk; one that is nowhere is already done.
      if (!places.has(key)) await readAndRemember();
      const place = places.get(key);
      if (place?.kind === 'batch') {
        await markDone(place.batch, key);
      } else if (place?.kind === 'legacy') {
        await serially.run(legacyFileName(key), () => removeLegacy(key));
      }
      // After the entry is recorded done: a mark left alone is only swept at the next start.
      if (marked.delete(key)) await removeIfPresent(markFileName(key)).catch(() => undefined);
    },
  };
}
