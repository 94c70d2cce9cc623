import type { Readable } from 'node:stream';

/** A person at a terminal: then a missing TEXT is a mistake, not "read stdin". */
export function isInteractive(stream: Readable): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
