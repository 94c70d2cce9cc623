import { LoopError } from '../errors.js';
import { fileKind, readOutsideFile, refusalOf } from '../files/read-outside-file.js';

export { fileKind };

/** No state file of ours comes near this; a bigger one is damage, not data to load into memory. */
export const defaultMaxBytes = 64 * 1024 * 1024;

export interface ReadRegularFileOptions {
  /** A larger file is refused (`state_corrupt`), unless `tail` is set. */
  readonly maxBytes?: number;
  /** Read only the last `maxBytes` of a larger file instead of refusing it. */
  readonly tail?: boolean;
}

/**
 * Reads a state file through the one opener (src/files/read-outside-file.ts): only a regular file,
 * never blocking on a FIFO; undefined when it does not exist. Anything else — a FIFO, a device, a
 * socket, a file too large to be ours — is a `state_corrupt` LoopError that names the file, what
 * it is and how to remove it.
 */
export async function readRegularFile(
  file: string,
  options: ReadRegularFileOptions = {},
): Promise<string | undefined> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  try {
    const bytes = await readOutsideFile(file, {
      maxBytes,
      ...(options.tail ? { tail: true } : {}),
    });
    return bytes.toString('utf8');
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === 'missing') return undefined;
    if (!(error instanceof LoopError) || refusal === undefined) throw error;
    if (refusal === 'too_large') {
      const size = Number(error.details['size']);
      throw new LoopError(
        'state_corrupt',
        `${file} is ${size} bytes, more than the ${maxBytes} a file of the-loop can be: ` +
          'move it out of the state folder',
        { file, size },
      );
    }
    const kind = error.details['fileType'];
    throw notRegular(file, typeof kind === 'string' ? kind : 'system file');
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
