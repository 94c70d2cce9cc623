import { createHash } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { errnoCode } from '../errors.js';
import { isNotRegularFile, readRegularFile } from '../state/read-regular-file.js';
import { createFileExclusive, writeFileAtomic } from '../state/write-file-atomic.js';

/**
 * Ids already seen (Slack event ids and message timestamps, GitHub delivery and comment ids),
 * kept on disk so a retry or a second copy after a restart is still recognised. `claim` is
 * atomic across processes: exactly one caller gets true for an id.
 *
 * A claim is one file created with O_EXCL (write-file-atomic.ts, createFileExclusive): four file
 * operations instead of a temp file's seven, which under a webhook load is most of serve's disk
 * work. The price is that a crash mid-claim can leave the record empty or cut short. Such a record
 * proves nothing was handed on under it — a message is handed on only once its claim is durable —
 * so the next claim with an owner (the recovered inbox entry, or its twin) takes it over.
 */
export interface DedupeLedger {
  /**
   * True when this id is now held by `owner`: newly claimed, or claimed earlier by the same owner
   * (an inbox entry being recovered after a crash). False when another owner holds it.
   */
  claim(id: string, owner?: string): Promise<boolean>;
  has(id: string): Promise<boolean>;
  /** Forgets ids older than the retention; returns how many went. */
  prune(): Promise<number>;
}

const damaged = Symbol('damaged');
/** How long a damaged record is given to be finished by a writer in another process. */
const damagedRecheckMs = 100;

export function createDedupeLedger(options: {
  readonly dir: string;
  readonly logger: Logger;
  readonly retentionMs?: number;
  readonly clock?: () => number;
}): DedupeLedger {
  const retentionMs = options.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
  const clock = options.clock ?? Date.now;
  let ready: Promise<unknown> | undefined;
  const perId = createKeyedQueue();

  /** Who holds a record: its owner, undefined when it cannot be read, or `damaged`. */
  const heldBy = async (file: string): Promise<string | typeof damaged | undefined> => {
    let text: string | undefined;
    try {
      text = await readRegularFile(file);
    } catch (error) {
      // A FIFO is said so, since reading one blindly would have hung here.
      if (isNotRegularFile(error)) {
        options.logger.warn(
          { event: 'state.file_not_regular', file, fileType: error.details['fileType'] },
          'skipping a dedupe record that is not a regular file',
        );
      }
      return undefined;
    }
    // Removed in between (pruned): nobody can be shown to hold it for this owner.
    if (text === undefined) return undefined;
    try {
      const held = (JSON.parse(text) as { owner?: unknown }).owner;
      return typeof held === 'string' ? held : damaged;
    } catch {
      return damaged;
    }
  };
  // Ids are arbitrary strings from the outside; a hash makes every one a safe file name.
  const fileOf = (id: string): string =>
    path.join(options.dir, `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.json`);

  return {
    async claim(id, owner = '') {
      ready ??= ensurePrivateDir(options.dir);
      await ready;
      const file = fileOf(id);
      // One claim of an id at a time in this process: a second one must not read the first's
      // record while it is still being written and take it for a damaged one.
      return perId.run(file, async () => {
        const record = `${JSON.stringify({ at: clock(), owner })}\n`;
        if (await createFileExclusive(file, record)) return true;
        if (!owner) return false;
        let held = await heldBy(file);
        if (held === damaged) {
          // Another process may be writing it this very moment: give it time to finish.
          await delay(damagedRecheckMs);
          held = await heldBy(file);
        }
        if (held !== damaged) return held === owner;
        options.logger.warn(
          { event: 'dedupe.record_taken_over', file },
          'a dedupe record cut short by a crash was taken over by the message recovered with it',
        );
        await writeFileAtomic(file, record);
        return true;
      });
    },
    async has(id) {
      return stat(fileOf(id)).then(
        () => true,
        () => false,
      );
    },
    async prune() {
      const names = await readdir(options.dir).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names.filter((entry) => entry.endsWith('.json'))) {
        const file = path.join(options.dir, name);
        try {
          if (clock() - (await stat(file)).mtimeMs > retentionMs) {
            await unlink(file);
            removed += 1;
          }
        } catch (error) {
          if (errnoCode(error) !== 'ENOENT') {
            options.logger.warn(
              { event: 'dedupe.prune_failed', file, err: error },
              'could not prune',
            );
          }
        }
      }
      return removed;
    },
  };
}

const pruneEveryMs = 60 * 60 * 1000;

/**
 * Seen ids are kept for the ledger's retention (a week), then forgotten: once at start, then every
 * hour while serving (docs/design.md §18 Growth), one prune at a time.
 */
export function createDedupePruner(options: {
  readonly ledger: DedupeLedger;
  readonly logger: Logger;
  readonly intervalMs?: number;
}): { start(): Promise<void>; stop(): void } {
  const { ledger, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const prune = async (): Promise<void> => {
    const removed = await ledger.prune().catch((error: unknown) => {
      logger.warn({ event: 'dedupe.prune_failed', err: error }, 'could not prune');
      return 0;
    });
    if (removed) logger.info({ event: 'dedupe.pruned', removed }, 'forgot old seen ids');
  };
  return {
    async start() {
      await prune();
      timer = setInterval(() => {
        running ??= prune().finally(() => (running = undefined));
      }, options.intervalMs ?? pruneEveryMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
