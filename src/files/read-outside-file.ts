import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { LoopError, errnoCode } from '../errors.js';

/** Why a file was not read; the LoopError's `details.refusal`. */
export type FileRefusal = 'missing' | 'not_regular' | 'system' | 'outside' | 'too_large';

export interface OutsideFileLimits {
  /** A larger file is refused (`file_too_large`), unless `tail` is set. */
  readonly maxBytes: number;
  /** Read only the last `maxBytes` of a larger file instead of refusing it. */
  readonly tail?: boolean;
  /** Read only when the opened file really lies inside this folder (symlinks resolved). */
  readonly inside?: string;
}

/**
 * Kernel and device trees: their "regular files" (`/proc/self/environ`) are not data to pass on.
 * /dev/shm is plain shared memory, where a state root or a file may well live.
 */
const systemFolders = ['/proc', '/sys', '/dev'];
const plainFolders = ['/dev/shm'];

/**
 * The one opener for every path that comes from outside serve (docs/design.md §18): a file an
 * agent attaches to `the-loop post` (read by the CLI, never by serve), a transcript a hook names,
 * a file a person names on the command line, the state files. open(2) on a FIFO waits for a
 * writer, inside libuv's four-thread pool, so four such opens stop every file operation of the
 * process; so the file is opened with O_NONBLOCK (which changes nothing for a regular file), and
 * everything is decided on the open descriptor, never on the path before it: fstat says what it
 * is, `/proc/self/fd/N` says where it really is (a symlink or a swap after a check changes
 * nothing). Only a regular file outside /proc, /sys and /dev is read, and at most `maxBytes` of it.
 * Refusals are LoopErrors with `details.refusal` (and `details.fileType` for a special file); a
 * file that cannot be opened for another reason (EACCES, ELOOP) throws the system error.
 */
export async function readOutsideFile(file: string, limits: OutsideFileLimits): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') throw refusal('missing', file, `${file} does not exist`);
    // A socket cannot be opened at all (ENXIO): it is just as much not a regular file.
    if (code === 'ENXIO') throw notRegularFile(file, 'socket or device');
    if (code === 'EISDIR') throw notRegularFile(file, 'directory');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegularFile(file, fileKind(stats));
    const where = await openedPath(handle, file);
    if (isSystemPath(where)) {
      throw refusal(
        'system',
        file,
        `${file} is in ${where.split('/').slice(0, 2).join('/')}, not a file of its own`,
      );
    }
    if (limits.inside !== undefined && !isInside(where, await realFolder(limits.inside))) {
      throw refusal('outside', file, `${file} is not inside ${limits.inside}`);
    }
    if (stats.size > limits.maxBytes && !limits.tail) {
      throw new LoopError(
        'file_too_large',
        `${file} is ${stats.size} bytes, more than the ${limits.maxBytes} allowed`,
        { file, size: stats.size, maxBytes: limits.maxBytes, refusal: 'too_large' },
      );
    }
    return await readUpTo(handle, stats.size, limits.maxBytes);
  } finally {
    await handle.close();
  }
}

/** The refusal's kind, when `error` is one of readOutsideFile's refusals. */
export function refusalOf(error: unknown): FileRefusal | undefined {
  if (!(error instanceof LoopError)) return undefined;
  const kind = error.details['refusal'];
  return typeof kind === 'string' ? (kind as FileRefusal) : undefined;
}

export function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  if (stats.isDirectory()) return 'directory';
  return 'special file';
}

function notRegularFile(file: string, kind: string): LoopError {
  return new LoopError('bad_request', `${file} is a ${kind}, not a regular file`, {
    file,
    fileType: kind,
    refusal: 'not_regular',
  });
}

function refusal(kind: FileRefusal, file: string, message: string): LoopError {
  return new LoopError(kind === 'missing' ? 'not_found' : 'bad_request', message, {
    file,
    refusal: kind,
  });
}

/** Reads from the start, or the last `maxBytes`; a file that changes size meanwhile ends early. */
async function readUpTo(handle: FileHandle, size: number, maxBytes: number): Promise<Buffer> {
  const start = Math.max(0, size - maxBytes);
  const buffer = Buffer.alloc(size - start);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Where the open descriptor really points. Linux says it in /proc/self/fd; elsewhere the path is
 * resolved once more, which a swap could race (docs/security.md).
 */
async function openedPath(handle: FileHandle, file: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return await realpath(file);
  }
}

async function realFolder(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return path.resolve(folder);
  }
}

function isSystemPath(file: string): boolean {
  if (plainFolders.some((folder) => isInside(file, folder))) return false;
  return systemFolders.some((folder) => isInside(file, folder));
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
