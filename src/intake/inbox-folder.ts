import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { errnoCode } from '../errors.js';
import {
  batchFileName,
  classifyInboxFile,
  decodeBatch,
  decodeDone,
  decodeLegacy,
  decodeMark,
  doneFileName,
  legacyFileName,
  markFileName,
  type Decoded,
  type InboxFolderContents,
} from './inbox-file-format.js';
import { mapLimit } from '../state/map-limit.js';
import { isNotRegularFile, readRegularFile } from '../state/read-regular-file.js';
import { sweepTempFiles } from '../state/sweep-temp-files.js';

export interface InboxFolderRead<T> extends InboxFolderContents<T> {
  /** Done files whose batch is gone: the batch was removed and a crash kept its done file. */
  readonly orphanDone: readonly string[];
}

const readConcurrency = 32;

/**
 * Reads and decodes every file of an inbox folder. A file that cannot be read, parsed or
 * validated is reported once (until it reads well again) and treated as absent: one bad file must
 * never keep the daemon from the messages in the others.
 */
export function createInboxFolderReader<T>(options: {
  readonly dir: string;
  readonly validate: (value: unknown) => value is T;
  readonly logger: Logger;
  readonly clock?: () => Date;
}): () => Promise<InboxFolderRead<T>> {
  const { dir, validate, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const reported = new Set<string>();

  function warn(file: string, event: string, fields: Record<string, unknown>): void {
    if (reported.has(file)) return;
    reported.add(file);
    logger.warn({ event, file, ...fields }, 'skipping an inbox file that cannot be used');
  }

  /** `problem` names what is wrong with a decoded value that is still partly usable. */
  async function readDecoded<V>(
    name: string,
    decode: (text: string) => Decoded<V>,
    problem: (value: V) => Record<string, unknown> | undefined = () => undefined,
  ): Promise<V | undefined> {
    const file = path.join(dir, name);
    let text: string | undefined;
    try {
      text = await readRegularFile(file);
    } catch (error) {
      if (isNotRegularFile(error)) {
        warn(file, 'state.file_not_regular', { fileType: error.details['fileType'] });
      } else {
        warn(file, 'state.record_unreadable', { err: error });
      }
      return undefined;
    }
    // Removed since the listing: it was done in the meantime.
    if (text === undefined) return undefined;
    const decoded = decode(text);
    if (!decoded.ok) {
      warn(file, 'state.record_corrupt', { reason: decoded.reason });
      return undefined;
    }
    const fault = problem(decoded.value);
    if (fault) warn(file, 'state.record_corrupt', fault);
    else reported.delete(file);
    return decoded.value;
  }

  async function listNames(): Promise<string[]> {
    try {
      return await readdir(dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw new LoopError('internal', `cannot list ${dir}: check that it is a readable folder`, {
        cause: errnoCode(error),
      });
    }
  }

  return async () => {
    const names = await listNames();
    const files = names.map((name) => ({ name, ...classifyInboxFile(name) }));
    const temps = files.filter((file) => file.kind === 'temp').map((file) => file.name);
    if (temps.length > 0) await sweepTempFiles(dir, temps, clock(), logger);

    const batchIds = files.flatMap((file) => (file.kind === 'batch' ? [file.id] : []));
    const doneIds = files.flatMap((file) => (file.kind === 'done' ? [file.id] : []));
    const legacyKeys = files.flatMap((file) => (file.kind === 'legacy' ? [file.key] : []));
    const markKeys = files.flatMap((file) => (file.kind === 'mark' ? [file.key] : []));
    const present = new Set(batchIds);

    const liveDoneIds = doneIds.filter((id) => present.has(id));
    // Done lists before batches: a batch removed in between is then missing, not resurrected
    // with an empty done list.
    const doneSets = await mapLimit(liveDoneIds, readConcurrency, (id) =>
      // A done list that cannot be read counts as empty: handling a message twice beats losing it.
      readDecoded(doneFileName(id), decodeDone),
    );
    const batches = await mapLimit(batchIds, readConcurrency, async (id) => {
      const batch = await readDecoded(
        batchFileName(id),
        (text) => {
          const decoded = decodeBatch(text, validate);
          return decoded.ok && decoded.value.keys[0] !== id
            ? { ok: false, reason: 'its first entry is not the one it is named after' }
            : decoded;
        },
        ({ invalid }) =>
          invalid.length > 0 ? { reason: 'entries failed validation', keys: invalid } : undefined,
      );
      return batch && { id, keys: batch.keys, entries: batch.entries };
    });
    const legacy = await mapLimit(legacyKeys, readConcurrency, async (key) => {
      const value = await readDecoded(legacyFileName(key), (text) => decodeLegacy(text, validate));
      return value === undefined ? undefined : { key, value };
    });

    // Read last: a mark written after its batch was listed belongs to an entry this read has.
    const markValues = await mapLimit(markKeys, readConcurrency, (key) =>
      readDecoded(markFileName(key), decodeMark),
    );
    const marks = new Map<string, unknown>();
    markKeys.forEach((key, index) => {
      if (markValues[index] !== undefined) marks.set(key, markValues[index]);
    });

    const done = new Map<string, ReadonlySet<string>>();
    liveDoneIds.forEach((id, index) => {
      const keys = doneSets[index];
      if (keys) done.set(id, keys);
    });
    return {
      batches: batches.filter((batch) => batch !== undefined),
      done,
      legacy: legacy.filter((entry) => entry !== undefined),
      marks,
      orphanDone: doneIds.filter((id) => !present.has(id)),
    };
  };
}
