import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { LoopError, errnoCode } from '../errors.js';

/** No state file of ours comes near this; a bigger one is damage, not data to load into memory. */
export const defaultMaxBytes = 64 * 1024 * 1024;

export interface ReadRegularFileOptions {
  /** A larger file is refused (`state_corrupt`), unless `tail` is set. */
  readonly maxBytes?: number;
  /** Read only the last `maxBytes` of a larger file instead of refusing it. */
  readonly tail?: boolean;
}

/**
 * Reads a file only if it is a regular file; undefined when it does not exist. open(2) on a FIFO
 * waits for a writer, and it waits inside libuv's small thread pool: four such opens stop every
 * file operation of the process. So the file is opened with O_NONBLOCK (which makes that open
 * return at once and changes nothing for a regular file), checked with fstat on the open handle
 * (no race with a rename in between), and anything else — a FIFO, a device, a socket — is refused
 * with a `state_corrupt` LoopError that names the file and what it is.
 */
export async function readRegularFile(
  file: string,
  options: ReadRegularFileOptions = {},
): Promise<string | undefined> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    // A socket cannot be opened at all (ENXIO): it is just as much not a file of ours.
    if (errnoCode(error) === 'ENXIO') throw notRegular(file, 'socket or device');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(file, fileKind(stats));
    if (stats.size > maxBytes && !options.tail) {
      throw new LoopError(
        'state_corrupt',
        `${file} is ${stats.size} bytes, more than the ${maxBytes} a file of the-loop can be: ` +
          'move it out of the state folder',
        { file, size: stats.size },
      );
    }
    const start = Math.max(0, stats.size - maxBytes);
    const buffer = Buffer.alloc(stats.size - start);
    let filled = 0;
    // A file that shrinks while it is read simply ends early.
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(
        buffer,
        filled,
        buffer.length - filled,
        start + filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** True for the refusal readRegularFile throws on a FIFO, device or socket. */
export function isNotRegularFile(error: unknown): error is LoopError {
  return error instanceof LoopError && typeof error.details['fileType'] === 'string';
}

export function notRegular(file: string, kind: string, use = 'read'): LoopError {
  return new LoopError(
    'state_corrupt',
    `${file} is a ${kind}, not a regular file; the-loop will not ${use} it: remove it ` +
      `(\`rm ${file}\`)`,
    { file, fileType: kind },
  );
}

export function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  if (stats.isDirectory()) return 'directory';
  return 'special file';
}
