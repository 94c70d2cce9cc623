import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Logger } from '../log/create-logger.js';
import { lineSeq, openLogForReading } from '../state/event-log-files.js';
import type { WrittenEvent } from '../state/event-log.js';

/**
 * The `seq` of a line as the log writes it (`{"ts":…,"event":…,"seq":N,…}`), read without
 * parsing the JSON, so skipping the lines a client has already seen stays cheap.
 */
const leadingSeq = /^\{"ts":"[^"\\]*","event":"[^"\\]*","seq":([1-9][0-9]{0,15})[,}]/;

export function quickSeq(line: string): number | undefined {
  const digits = leadingSeq.exec(line)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** The `seq` of a file's first line, if it has one. */
async function firstSeq(handle: FileHandle): Promise<number | undefined> {
  const buffer = Buffer.alloc(16 * 1024);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  const text = buffer.subarray(0, bytesRead).toString('utf8');
  const end = text.indexOf('\n');
  return end === -1 ? undefined : quickSeq(text.slice(0, end));
}

/** The `seq` and name of a log line, or undefined for a line that is not a numbered event. */
export function parseLoggedLine(
  line: string,
): { seq: number; event: string; fields: Record<string, unknown> } | undefined {
  if (lineSeq(line) === undefined) return undefined;
  const fields = JSON.parse(line) as Record<string, unknown>;
  const { seq, event } = fields;
  if (typeof seq !== 'number' || typeof event !== 'string') return undefined;
  return { seq, event, fields };
}

/** Opens the files newest first; one that cannot be opened is reported and left out. */
async function openNewestFirst(files: readonly string[], logger: Logger): Promise<FileHandle[]> {
  const handles: FileHandle[] = [];
  for (const file of files) {
    try {
      const handle = await openLogForReading(file);
      if (handle !== undefined) handles.push(handle);
    } catch (error) {
      logger.warn({ event: 'stream.replay_unreadable', file, err: error }, 'not replayed');
    }
  }
  return handles;
}

async function* linesOf(handle: FileHandle): AsyncGenerator<string> {
  const input = handle.createReadStream({ start: 0, autoClose: false, encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    yield* lines;
  } finally {
    lines.close();
    input.destroy();
  }
}

/**
 * The lines with `since < seq <= head`, oldest first, from the log's files (given newest first,
 * as EventFeed.files lists them), for a stream's replay (docs/design.md §19). The files are opened
 * newest first, so a rotation between two opens shows one file twice rather than skipping one
 * (the repeat is dropped by its seq), and a file rotated away after its open is read all the same.
 */
export async function* replayEventLog(
  files: readonly string[],
  since: number,
  head: number,
  logger: Logger,
): AsyncGenerator<WrittenEvent & { fields: Record<string, unknown> }> {
  const handles = (await openNewestFirst(files, logger)).reverse();
  let last = since;
  try {
    const firsts = await Promise.all(handles.map((handle) => firstSeq(handle)));
    for (const [index, handle] of handles.entries()) {
      // Every line of this file is older than the next file's first one: skip it when that one
      // is already at or before `since`.
      const next = firsts[index + 1];
      if (next !== undefined && next <= since + 1) continue;
      for await (const line of linesOf(handle)) {
        const quick = quickSeq(line);
        if (quick !== undefined && quick <= last) continue;
        let parsed: ReturnType<typeof parseLoggedLine>;
        try {
          parsed = parseLoggedLine(line);
        } catch {
          // A corrupt line is no event; the stream goes on with the next one.
          continue;
        }
        if (parsed === undefined || parsed.seq <= last) continue;
        if (parsed.seq > head) break;
        last = parsed.seq;
        yield { seq: parsed.seq, event: parsed.event, line, fields: parsed.fields };
      }
    }
  } finally {
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
  }
}
