import type { Logger } from '../log/create-logger.js';
import type { DedupeLedger } from './create-dedupe-ledger.js';

const pruneEveryMs = 6 * 60 * 60 * 1000;

/** Seen ids are kept a week, then forgotten: once at start, then every six hours. */
export function createDedupePruner(options: {
  readonly ledger: DedupeLedger;
  readonly logger: Logger;
}): { start(): Promise<void>; stop(): void } {
  const { ledger, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  const prune = async (): Promise<void> => {
    const removed = await ledger.prune().catch(() => 0);
    if (removed) logger.info({ event: 'dedupe.pruned', removed }, 'forgot old seen ids');
  };
  return {
    async start() {
      await prune();
      timer = setInterval(() => void prune(), pruneEveryMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
