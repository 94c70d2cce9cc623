import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createKeyedQueue } from '../concurrency/keyed-queue.js';
import { LoopError, errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { mapLimit } from './map-limit.js';
import { isNotRegularFile, readRegularFile } from './read-regular-file.js';
import { assertRecordKey, isValidRecordKey } from './record-key.js';
import { sweepTempFiles } from './sweep-temp-files.js';
import { isTempFileName } from './temp-file-name.js';
import { syncDir, writeFileAtomic } from './write-file-atomic.js';

export interface RecordStore<T> {
  read(key: string): Promise<T | undefined>;
  /** Durable when it resolves. Writes to one key land in call order: the last call wins. */
  write(key: string, value: T): Promise<void>;
  /** True when a record was there to remove. */
  remove(key: string): Promise<boolean>;
  /** Every readable, valid record, sorted by key. */
  list(): Promise<Array<{ key: string; value: T }>>;
}

export interface RecordStoreOptions<T> {
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  readonly logger: Logger;
  readonly clock?: () => Date;
}

const suffix = '.json';
const readConcurrency = 32;

/**
 * One JSON file per record, `<dir>/<key>.json`, written atomically (docs/design.md §3.4). A file that
 * cannot be read, parsed or validated is reported once and treated as absent: one bad record must
 * never stop the daemon from serving the others.
 */
export function createRecordStore<T>(options: RecordStoreOptions<T>): RecordStore<T> {
  const { dir, validate, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const reported = new Set<string>();
  let dirEnsured = false;

  const fileOf = (key: string): string => path.join(dir, `${key}${suffix}`);

  function report(key: string, event: string, fields: Record<string, unknown>): undefined {
    if (reported.has(key)) return undefined;
    reported.add(key);
    logger.warn({ event, file: fileOf(key), ...fields }, 'skipping a record that cannot be used');
    return undefined;
  }

  async function load(key: string): Promise<T | undefined> {
    let text: string | undefined;
    try {
      text = await readRegularFile(fileOf(key));
    } catch (error) {
      // A FIFO or device here would hang the read (and with it list, get and say): skip it.
      if (isNotRegularFile(error)) {
        return report(key, 'state.file_not_regular', { fileType: error.details['fileType'] });
      }
      return report(key, 'state.record_unreadable', { err: error });
    }
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return report(key, 'state.record_corrupt', { reason: 'not JSON', err: error });
    }
    if (!validate(value)) return report(key, 'state.record_corrupt', { reason: 'invalid record' });
    reported.delete(key);
    return value;
  }

  // Serialising per key makes "last writer wins" mean the last call, not whichever fsync ended last.
  const perKey = createKeyedQueue();

  async function store(key: string, data: string): Promise<void> {
    if (!dirEnsured) {
      await ensurePrivateDir(dir);
      dirEnsured = true;
    }
    try {
      await writeFileAtomic(fileOf(key), data);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
      // Someone removed the folder under us; recreate it once rather than lose the write.
      await ensurePrivateDir(dir);
      await writeFileAtomic(fileOf(key), data);
    }
    reported.delete(key);
  }

  return {
    async read(key) {
      assertRecordKey(key);
      return load(key);
    },

    async write(key, value) {
      assertRecordKey(key);
      if (!validate(value)) {
        throw new LoopError('internal', `refusing to write an invalid record to ${fileOf(key)}`);
      }
      const data = `${JSON.stringify(value, null, 2)}\n`;
      await perKey.run(key, () => store(key, data));
    },

    async remove(key) {
      assertRecordKey(key);
      return perKey.run(key, async () => {
        try {
          await unlink(fileOf(key));
        } catch (error) {
          if (errnoCode(error) === 'ENOENT') return false;
          throw error;
        }
        reported.delete(key);
        await syncDir(dir);
        return true;
      });
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return [];
        throw new LoopError('internal', `cannot list ${dir}: check that it is a readable folder`, {
          cause: errnoCode(error),
        });
      }
      const temps = names.filter(isTempFileName);
      if (temps.length > 0) await sweepTempFiles(dir, temps, clock(), logger);
      const keys = names
        .filter((name) => name.endsWith(suffix) && !isTempFileName(name))
        .map((name) => name.slice(0, -suffix.length))
        .filter(isValidRecordKey)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const values = await mapLimit(keys, readConcurrency, load);
      const records: Array<{ key: string; value: T }> = [];
      keys.forEach((key, index) => {
        const value = values[index];
        if (value !== undefined) records.push({ key, value });
      });
      return records;
    },
  };
}
