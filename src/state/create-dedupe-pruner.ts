import type { Logger } from '../log/create-logger.js';
import type { DedupeLedger } from './create-dedupe-ledger.js';

const pruneEveryMs = 60 * 60 * 1000;

/**
 * Seen ids are kept for the ledger's retention (a week), then forgotten: once at start, then every
 * hour while serving (docs/design.md §18 Growth), one prune at a time.
 */
export function createDedupePruner(options: {
  readonly ledger: DedupeLedger;
  readonly logger: Logger;
  readonly intervalMs?: number;
}): { start(): Promise<void>; stop(): void } {
  const { ledger, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const prune = async (): Promise<void> => {
    const removed = await ledger.prune().catch((error: unknown) => {
      logger.warn({ event: 'dedupe.prune_failed', err: error }, 'could not prune');
      return 0;
    });
    if (removed) logger.info({ event: 'dedupe.pruned', removed }, 'forgot old seen ids');
  };
  return {
    async start() {
      await prune();
      timer = setInterval(() => {
        running ??= prune().finally(() => (running = undefined));
      }, options.intervalMs ?? pruneEveryMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
