import type { LoggedEvent } from '../../src/state/event-log.js';
import { readRegularFile } from '../../src/state/read-regular-file.js';

/** Every well-formed line of an event log, in file order; a missing log has no events. */
export async function readEvents(file: string): Promise<LoggedEvent[]> {
  // The log grows without bound: the limit is the reader's memory, not a state file's size.
  const text = await readRegularFile(file, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (text === undefined) return [];
  const events: LoggedEvent[] = [];
  for (const line of text.split('\n')) {
    const event = parseEventLine(line);
    if (event) events.push(event);
  }
  return events;
}

/** A line torn by a crash or edited by hand is skipped, not fatal. */
export function parseEventLine(line: string): LoggedEvent | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.ts !== 'string' || typeof candidate.event !== 'string') return undefined;
  return candidate as LoggedEvent;
}
