import type { EventLog, LoggedEvent } from '../../src/state/event-log.js';

export interface MemoryEventLog extends EventLog {
  readonly events: LoggedEvent[];
  readonly closed: boolean;
}

/**
 * An event log for unit tests of other modules. It keeps exactly what callers pass, unscrubbed,
 * so a test can assert that a module never hands message text or a token to the log at all.
 */
export function createMemoryEventLog(options: { clock?: () => Date } = {}): MemoryEventLog {
  const clock = options.clock ?? (() => new Date());
  const events: LoggedEvent[] = [];
  let closed = false;
  return {
    events,
    get closed() {
      return closed;
    },
    record(event, fields = {}) {
      events.push({ ...fields, ts: clock().toISOString(), event });
    },
    flush: () => Promise.resolve(),
    async close() {
      closed = true;
    },
  };
}
