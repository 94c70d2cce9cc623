import { createHash } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { errnoCode } from '../errors.js';
import { isNotRegularFile, readRegularFile } from './read-regular-file.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * Ids already seen (Slack event ids and message timestamps, GitHub delivery and comment ids),
 * kept on disk so a retry or a second copy after a restart is still recognised. `claim` is
 * atomic across processes: exactly one caller gets true for an id.
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

export function createDedupeLedger(options: {
  readonly dir: string;
  readonly logger: Logger;
  readonly retentionMs?: number;
  readonly clock?: () => number;
}): DedupeLedger {
  const retentionMs = options.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
  const clock = options.clock ?? Date.now;
  let ready: Promise<unknown> | undefined;
  // Ids are arbitrary strings from the outside; a hash makes every one a safe file name.
  const fileOf = (id: string): string =>
    path.join(options.dir, `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.json`);

  return {
    async claim(id, owner = '') {
      ready ??= ensurePrivateDir(options.dir);
      await ready;
      const file = fileOf(id);
      const record = `${JSON.stringify({ at: clock(), owner })}\n`;
      if (await writeFileAtomic(file, record, { exclusive: true })) return true;
      if (!owner) return false;
      let held: unknown;
      try {
        const text = await readRegularFile(file);
        held = text === undefined ? undefined : (JSON.parse(text) as { owner?: unknown }).owner;
      } catch (error) {
        // Unreadable or damaged: nobody can be shown to hold it for this owner. A FIFO is said
        // so, since reading one blindly would have hung here.
        if (isNotRegularFile(error)) {
          options.logger.warn(
            { event: 'state.file_not_regular', file, fileType: error.details['fileType'] },
            'skipping a dedupe record that is not a regular file',
          );
        }
        held = undefined;
      }
      return held === owner;
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
