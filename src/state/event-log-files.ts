import { constants } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { fileKind, notRegular } from './read-regular-file.js';

/*
 * The event log's files on disk (docs/design.md §3.4, §18 Growth): `events.jsonl` and the rotated
 * `events.jsonl.1`, `events.jsonl.2`, and the sequence number the newest of them ends on.
 */

/** How many files the log keeps: the one written to and two rotated ones. */
export const eventLogFilesKept = 3;

/** The log's files, newest first: `events.jsonl`, `events.jsonl.1`, … */
export function eventLogFiles(file: string, kept: number = eventLogFilesKept): string[] {
  return Array.from({ length: kept }, (_, index) => (index === 0 ? file : `${file}.${index}`));
}

/**
 * Moves every file one place older (`.1` → `.2`, the live file → `.1`); what falls off the end is
 * overwritten by the rename, so at most `kept` files remain. A file missing on the way is skipped.
 * Readers holding one of them open keep reading it: rename never touches an open descriptor.
 */
export async function rotateEventLog(
  file: string,
  kept: number = eventLogFilesKept,
): Promise<void> {
  const files = eventLogFiles(file, kept);
  for (let index = files.length - 1; index > 0; index -= 1) {
    const from = files[index - 1];
    const to = files[index];
    if (from === undefined || to === undefined) continue;
    try {
      await rename(from, to);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
  }
}

const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const newline = 0x0a;
const chunkBytes = 64 * 1024;
/** A "line" longer than this is garbage, not an event: it is skipped, not gathered. */
const longestLine = 1024 * 1024;

/** The `seq` of one log line, or undefined when the line is not an event with one. */
export function lineSeq(line: string): number | undefined {
  if (!line.includes('"seq"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const seq = (parsed as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : undefined;
  } catch {
    // A corrupt line has no sequence number; the caller looks at the one before it.
    return undefined;
  }
}

/** Opens one of the log's files for reading; undefined when it does not exist. */
export async function openLogForReading(file: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, readFlags);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw notRegular(file, fileKind(stats), 'read');
  }
  return handle;
}

/** The last `seq` in one file, read backwards from its end past corrupt or older lines. */
async function lastSeqIn(file: string): Promise<number | undefined> {
  const handle = await openLogForReading(file);
  if (handle === undefined) return undefined;
  try {
    let end = (await handle.stat()).size;
    let carry = Buffer.alloc(0);
    const chunk = Buffer.alloc(chunkBytes);
    while (end > 0) {
      const start = Math.max(0, end - chunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, end - start, start);
      const text = Buffer.concat([chunk.subarray(0, bytesRead), carry]);
      end = start;
      let whole = text;
      carry = Buffer.alloc(0);
      if (start > 0) {
        // Before the first newline is the tail of a line that began further back: kept for later.
        const firstBreak = text.indexOf(newline);
        if (firstBreak === -1) {
          if (text.length <= longestLine) carry = text;
          continue;
        }
        carry = text.subarray(0, firstBreak);
        whole = text.subarray(firstBreak + 1);
      }
      const lines = whole.toString('utf8').split('\n');
      for (let index = lines.length - 1; index >= 0; index -= 1) {
        const seq = lineSeq(lines[index] ?? '');
        if (seq !== undefined) return seq;
      }
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The sequence number the log ends on, so a restarted serve goes on counting (docs/design.md §19):
 * the last `seq` of the newest file that has one. A file that cannot be read is reported and
 * passed over; a log with no numbered line (new, or written before numbering) starts at 0.
 */
export async function readLastSeq(file: string, logger: Logger): Promise<number> {
  for (const candidate of eventLogFiles(file)) {
    try {
      const seq = await lastSeqIn(candidate);
      if (seq !== undefined) return seq;
    } catch (error) {
      logger.warn(
        { event: 'events.seq_unreadable', file: candidate, err: error },
        'cannot read the event log to continue its sequence numbers; looking at an older file',
      );
    }
  }
  return 0;
}
