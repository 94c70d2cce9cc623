import { createLogger, type Logger } from '../../src/log/create-logger.js';

type Line = Record<string, unknown>;

export interface CapturedLog {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  readonly lines: Line[];
  /** The `event` field of every line, in order. */
  readonly events: () => unknown[];
  /** Every line as written, to search for text that must never be logged. */
  readonly text: () => string;
  /** Resolves with the first line (already written or still to come) that matches. */
  readonly waitFor: (matches: (line: Line) => boolean) => Promise<Line>;
}

/** The real pino logger (with its redaction) writing into memory. */
export function captureLogger(): CapturedLog {
  const raw: string[] = [];
  const lines: Line[] = [];
  const waiters: { matches: (line: Line) => boolean; resolve: (line: Line) => void }[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: {
      write(text: string) {
        const line = JSON.parse(text) as Line;
        raw.push(text);
        lines.push(line);
        for (const waiter of waiters.filter((each) => each.matches(line))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      },
    },
  });
  const waitFor = (matches: (line: Line) => boolean): Promise<Line> => {
    const seen = lines.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ matches, resolve }));
  };
  return {
    logger,
    lines,
    events: () => lines.map((line) => line['event']),
    text: () => raw.join(''),
    waitFor,
  };
}
