import { open } from 'node:fs/promises';

/**
 * Reads a JSON-lines file another process appends to, from where the last read stopped, so a
 * poll costs only the new bytes. A line without its newline yet is kept for the next read.
 */
export interface JsonLinesReader<T> {
  /** Records appended since the last call. */
  readNew(): Promise<T[]>;
  /** Every record read so far, in file order. */
  readonly all: readonly T[];
}

export function createJsonLinesReader<T>(file: string): JsonLinesReader<T> {
  const all: T[] = [];
  let offset = 0;
  let carry: Buffer = Buffer.alloc(0);
  return {
    all,
    async readNew() {
      let handle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      let chunk: Buffer;
      try {
        const { size } = await handle.stat();
        if (size <= offset) return [];
        const buffer = Buffer.alloc(size - offset);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        offset += bytesRead;
        chunk = buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
      const { lines, rest } = splitCompleteLines(carry, chunk);
      carry = rest;
      const records = lines.map((line) => JSON.parse(line) as T);
      all.push(...records);
      return records;
    },
  };
}

/**
 * Joins what was left over with the new bytes and splits off the complete lines (empty ones
 * dropped); the unfinished tail comes back as `rest`. Works on bytes, so a read that ends inside
 * a multi-byte character cannot garble it.
 */
export function splitCompleteLines(
  carry: Buffer,
  chunk: Buffer,
): { lines: string[]; rest: Buffer } {
  const joined = carry.length ? Buffer.concat([carry, chunk]) : chunk;
  const end = joined.lastIndexOf(0x0a);
  if (end === -1) return { lines: [], rest: joined };
  const lines = joined
    .subarray(0, end)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
  return { lines, rest: Buffer.from(joined.subarray(end + 1)) };
}
