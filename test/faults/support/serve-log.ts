import { readEvents } from '../../helpers/read-events.js';
import type { LoggedEvent } from '../../../src/state/event-log.js';
import path from 'node:path';
import type { ServeFixture } from '../../helpers/run-serve.js';

export type LogEntry = Readonly<Record<string, unknown>>;

/** serve's pino lines (JSON on stdout); the human lines on stderr are left out. */
export function logEntries(fixture: ServeFixture): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of fixture.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null) entries.push(value as LogEntry);
    } catch (error) {
      // Two processes' output can interleave mid-line; such a fragment is no log entry.
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return entries;
}

/** Log entries whose `event` field is `event`. */
export function logged(fixture: ServeFixture, event: string): LogEntry[] {
  return logEntries(fixture).filter((entry) => entry['event'] === event);
}

/** The event log (`<state>/events.jsonl`) of a fixture. */
export function eventsOf(fixture: ServeFixture): Promise<LoggedEvent[]> {
  return readEvents(path.join(fixture.stateRoot, 'events.jsonl'));
}
