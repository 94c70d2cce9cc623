import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { LoopError, errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { eventLogFiles, eventLogFilesKept, rotateEventLog } from './event-log-files.js';
import { fileKind, notRegular } from './read-regular-file.js';
import { scrubEventFields } from './scrub-event-fields.js';
import { privateFileMode } from './write-file-atomic.js';

export interface LoggedEvent {
  readonly ts: string;
  readonly event: string;
  readonly [field: string]: unknown;
}

/** Where a part records what happened: the one method of the event log it needs. */
export interface EventSink {
  record(event: string, fields?: Record<string, unknown>): void;
}

export interface EventLog extends EventSink {
  /** Never throws and never waits: the line is queued and appended in order. */
  record(event: string, fields?: Record<string, unknown>): void;
  /** Resolves once every line recorded so far is written (or reported as lost). */
  flush(): Promise<void>;
  /** Flushes, then drops (with a warning) anything recorded later. */
  close(): Promise<void>;
}

/** One line as it reached the disk. */
export interface WrittenEvent {
  readonly seq: number;
  readonly event: string;
  /** The JSON object, without its newline. */
  readonly line: string;
}

/** What the event stream reads (docs/design.md §19): the lines as they are written. */
export interface EventFeed {
  /** The log's files, newest first (`events.jsonl`, `events.jsonl.1`, …). */
  readonly files: readonly string[];
  /** The `seq` of the last line written so far (0 before the first). */
  lastWritten(): number;
  /**
   * Calls `listener` with each line once it is on disk, in `seq` order; a line lost to a failing
   * disk is never announced. Returns the unsubscribe function.
   */
  subscribe(listener: (written: WrittenEvent) => void): () => void;
}

export interface EventLogOptions {
  readonly path: string;
  readonly logger: Logger;
  readonly clock?: () => Date;
  /** The `seq` the log on disk ends on (readLastSeq); the next line gets one more. Default 0. */
  readonly lastSeq?: number;
  /** Rotate before a batch would take the file past this size (docs/design.md §18). */
  readonly maxBytes?: number;
}

/**
 * One JSON object per line, `{"ts","event","seq",...}`, never holding a secret or message text.
 * `seq` numbers the lines (docs/design.md §19): it only grows, across restarts and rotation.
 */
export function formatEventLine(
  ts: Date,
  event: string,
  fields: Record<string, unknown>,
  seq?: number,
): string {
  const head = { ts: ts.toISOString(), event, ...(seq === undefined ? {} : { seq }) };
  try {
    return `${JSON.stringify({ ...head, ...scrubEventFields(fields) })}\n`;
  } catch {
    // A getter or toJSON that throws must not cost the event itself.
    return `${JSON.stringify({ ...head, fieldsDropped: true })}\n`;
  }
}

// O_NONBLOCK: opening a FIFO for writing must fail at once (ENXIO) or return, never wait for a
// reader inside libuv's small thread pool; for a regular file it changes nothing.
const appendFlags =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NONBLOCK |
  constants.O_NOCTTY;
const newline = 0x0a;

/**
 * Opens the event log for appending, refusing anything but a regular file: events written to a
 * FIFO are lost to whoever reads it, and a blocked open would stall every file operation.
 */
async function openForAppend(file: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, appendFlags, privateFileMode);
  } catch (error) {
    if (errnoCode(error) === 'ENXIO') throw notRegular(file, 'FIFO or socket', 'write to');
    throw error;
  }
  return handle;
}

/**
 * Appends `data` (whole lines) in one write(2), so no other line can land inside one of them.
 * When the disk fills up midway the write comes back short: the file is cut back to the end of
 * the last whole line, so the next append starts on a line of its own. Returns the bytes kept.
 */
async function appendLines(handle: FileHandle, data: Buffer, sizeBefore: number): Promise<number> {
  let written: number;
  try {
    ({ bytesWritten: written } = await handle.write(data, 0, data.length));
  } catch (error) {
    // write(2) failed as a whole; a file that grew anyway is cut back all the same.
    await handle.truncate(sizeBefore).catch(() => undefined);
    throw error;
  }
  if (written === data.length) return written;
  const kept = written === 0 ? 0 : data.lastIndexOf(newline, written - 1) + 1;
  await handle.truncate(sizeBefore + kept);
  return kept;
}

/**
 * Run once at start, before the log is appended to: refuses a log that is not a regular file
 * (serve then does not start, and the message names the file to remove), and drops a last line
 * that a crash or a full disk cut short, so the next line does not get glued onto it. Dropping
 * beats terminating it: a cut JSON line is unreadable either way.
 */
export async function prepareEventLog(file: string, logger: Logger): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    if (errnoCode(error) === 'ENXIO') throw notRegular(file, 'FIFO or socket', 'write to');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(file, fileKind(stats), 'write to');
    const end = await lastLineEnd(handle, stats.size);
    if (end === stats.size) return;
    await handle.truncate(end);
    logger.warn(
      { event: 'events.partial_line_dropped', file, bytes: stats.size - end },
      'dropped a cut-off last line of the event log',
    );
  } finally {
    await handle.close();
  }
}

/** The offset just past the file's last newline (0 when there is none), read from the end. */
async function lastLineEnd(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(newline);
    if (index !== -1) return start + index + 1;
    if (start === 0) return 0;
    // The last line is longer than a chunk: look further back.
    end = start;
  }
  return 0;
}

/**
 * The event log (docs/design.md §3.4) sits on the hot path, so `record` only queues a line; one
 * drain loop appends whatever has queued up in a single write. The file is reopened for every
 * batch, so a log that was deleted or rotated is simply created again; a failing disk costs events
 * and a warning, never the caller, and never a torn line (see appendLines). Before a batch would
 * take the file past `maxBytes` the files are rotated (event-log-files.ts), in the same loop.
 */
export function openEventLog(options: EventLogOptions): EventLog & EventFeed {
  const { logger } = options;
  const file = options.path;
  const clock = options.clock ?? (() => new Date());
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const pending: Pending[] = [];
  const listeners = new Set<(written: WrittenEvent) => void>();
  let draining: Promise<void> | undefined;
  let closed = false;
  let lost = 0;
  let rotateFailing = false;
  let nextSeq = (options.lastSeq ?? 0) + 1;
  let lastWritten = options.lastSeq ?? 0;

  /** Rotates when `adding` more bytes would take a non-empty file past maxBytes. */
  async function rotateIfFull(size: number, adding: number): Promise<boolean> {
    if (size === 0 || size + adding <= maxBytes) return false;
    try {
      await rotateEventLog(file, eventLogFilesKept);
    } catch (error) {
      // The log keeps growing rather than losing events; said once until a rotation works.
      if (!rotateFailing) {
        logger.warn({ event: 'events.rotate_failed', file, err: error }, 'event log not rotated');
      }
      rotateFailing = true;
      return false;
    }
    rotateFailing = false;
    logger.info({ event: 'events.rotated', file, bytes: size }, 'event log rotated');
    return true;
  }

  /** Appends the lines; returns how many of them did not fit (a short write). */
  async function appendOnce(data: Buffer): Promise<number> {
    let handle = await openForAppend(file);
    try {
      let stats = await handle.stat();
      if (!stats.isFile()) throw notRegular(file, fileKind(stats), 'write to');
      if (await rotateIfFull(stats.size, data.length)) {
        await handle.close();
        handle = await openForAppend(file);
        stats = await handle.stat();
        if (!stats.isFile()) throw notRegular(file, fileKind(stats), 'write to');
      }
      if ((stats.mode & 0o777) !== privateFileMode) await handle.chmod(privateFileMode);
      const kept = await appendLines(handle, data, stats.size);
      return countLines(data.subarray(kept));
    } finally {
      await handle.close();
    }
  }

  function announce(batch: readonly Pending[]): void {
    for (const entry of batch) {
      lastWritten = entry.seq;
      if (listeners.size === 0) continue;
      const written = { seq: entry.seq, event: entry.event, line: entry.text.slice(0, -1) };
      for (const listener of listeners) {
        try {
          listener(written);
        } catch (error) {
          logger.warn({ event: 'events.listener_failed', err: error }, 'event listener failed');
        }
      }
    }
  }

  async function append(batch: readonly Pending[]): Promise<void> {
    const count = batch.length;
    const data = Buffer.from(batch.map((entry) => entry.text).join(''), 'utf8');
    let short = count;
    try {
      try {
        short = await appendOnce(data);
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
        await ensurePrivateDir(path.dirname(file));
        short = await appendOnce(data);
      }
      if (short > 0) {
        throw new LoopError('internal', `the disk took only part of the batch; ${short} lost`, {
          lines: short,
        });
      }
      if (lost > 0) {
        logger.info({ event: 'events.log_recovered', file, lost }, 'event log is writable again');
        lost = 0;
      }
    } catch (error) {
      const missing =
        error instanceof LoopError && typeof error.details['lines'] === 'number'
          ? error.details['lines']
          : count;
      // One warning per run of failures: a broken disk must not flood the log it is reported to.
      if (lost === 0) {
        logger.warn(
          { event: 'events.write_failed', file, err: error },
          'cannot append to the event log',
        );
      }
      lost += missing;
    }
    announce(batch.slice(0, count - short));
  }

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      await append(pending.splice(0));
    }
    draining = undefined;
  }

  return {
    record(event, fields = {}) {
      try {
        if (closed) {
          logger.warn(
            { event: 'events.record_after_close', eventName: event },
            'event log is closed',
          );
          return;
        }
        const text = formatEventLine(clock(), event, fields, nextSeq);
        pending.push({ seq: nextSeq, event, text });
        nextSeq += 1;
        draining ??= drain();
      } catch (error) {
        logger.warn(
          { event: 'events.record_failed', eventName: event, err: error },
          'event not logged',
        );
      }
    },

    async flush() {
      await draining;
    },

    async close() {
      closed = true;
      await draining;
      listeners.clear();
    },

    files: eventLogFiles(file, eventLogFilesKept),
    lastWritten: () => lastWritten,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

interface Pending {
  readonly seq: number;
  readonly event: string;
  /** The line with its newline. */
  readonly text: string;
}

function countLines(data: Buffer): number {
  let lines = 0;
  for (let index = data.indexOf(newline); index !== -1; index = data.indexOf(newline, index + 1)) {
    lines += 1;
  }
  return lines;
}
