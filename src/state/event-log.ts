import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';
import { errnoCode } from './errno-code.js';
import { scrubEventFields } from './scrub-event-fields.js';
import { privateFileMode } from './write-file-atomic.js';

export interface LoggedEvent {
  readonly ts: string;
  readonly event: string;
  readonly [field: string]: unknown;
}

export interface EventLog {
  /** Never throws and never waits: the line is queued and appended in order. */
  record(event: string, fields?: Record<string, unknown>): void;
  /** Resolves once every line recorded so far is written (or reported as lost). */
  flush(): Promise<void>;
  /** Flushes, then drops (with a warning) anything recorded later. */
  close(): Promise<void>;
}

export interface EventLogOptions {
  readonly path: string;
  readonly logger: Logger;
  readonly clock?: () => Date;
}

/** One JSON object per line, `{"ts","event",...}`, never holding a secret or message text. */
export function formatEventLine(ts: Date, event: string, fields: Record<string, unknown>): string {
  try {
    return `${JSON.stringify({ ts: ts.toISOString(), event, ...scrubEventFields(fields) })}\n`;
  } catch {
    // A getter or toJSON that throws must not cost the event itself.
    return `${JSON.stringify({ ts: ts.toISOString(), event, fieldsDropped: true })}\n`;
  }
}

/**
 * The event log (DESIGN §3.4) sits on the hot path, so `record` only queues a line; one drain
 * loop appends whatever has queued up in a single write. The file is reopened for every batch,
 * so a log that was deleted or rotated is simply created again; a failing disk costs events and
 * a warning, never the caller.
 */
export function openEventLog(options: EventLogOptions): EventLog {
  const { logger } = options;
  const file = options.path;
  const clock = options.clock ?? (() => new Date());
  const pending: string[] = [];
  let draining: Promise<void> | undefined;
  let closed = false;
  let lost = 0;

  async function appendOnce(data: string): Promise<void> {
    const handle = await open(file, 'a', privateFileMode);
    try {
      const stats = await handle.stat();
      if ((stats.mode & 0o777) !== privateFileMode) await handle.chmod(privateFileMode);
      await handle.writeFile(data, 'utf8');
    } finally {
      await handle.close();
    }
  }

  async function append(data: string, count: number): Promise<void> {
    try {
      try {
        await appendOnce(data);
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
        await ensurePrivateDir(path.dirname(file));
        await appendOnce(data);
      }
      if (lost > 0) {
        logger.info({ event: 'events.log_recovered', file, lost }, 'event log is writable again');
        lost = 0;
      }
    } catch (error) {
      // One warning per run of failures: a broken disk must not flood the log it is reported to.
      if (lost === 0) {
        logger.warn(
          { event: 'events.write_failed', file, err: error },
          'cannot append to the event log',
        );
      }
      lost += count;
    }
  }

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.splice(0);
      await append(batch.join(''), batch.length);
    }
    draining = undefined;
  }

  return {
    record(event, fields = {}) {
      try {
        if (closed) {
          logger.warn(
            { event: 'events.record_after_close', eventName: event },
            'event log is closed',
          );
          return;
        }
        pending.push(formatEventLine(clock(), event, fields));
        draining ??= drain();
      } catch (error) {
        logger.warn(
          { event: 'events.record_failed', eventName: event, err: error },
          'event not logged',
        );
      }
    },

    async flush() {
      await draining;
    },

    async close() {
      closed = true;
      await draining;
    },
  };
}
