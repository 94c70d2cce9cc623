import type { DestinationStream } from 'pino';
import { formatLogLine } from './format-log-line.js';

/**
 * A pino destination that writes readable lines into `target` (a terminal). It sits after pino's
 * own serialisation, so every redacted field is already `[redacted]` by the time it is formatted.
 */
export function createPrettyDestination(target: {
  write(text: string): unknown;
}): DestinationStream {
  return {
    write(chunk: string): void {
      for (const line of chunk.split('\n')) {
        if (line !== '') target.write(`${formatLogLine(line)}\n`);
      }
    },
  };
}
