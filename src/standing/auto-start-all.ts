import type { Logger } from '../log/create-logger.js';
import type { BulkResult, StandingService } from './create-standing-service.js';

/** Starts every auto-start session at serve start; one that fails is logged and the rest go on. */
export async function autoStartAll(
  standing: Pick<StandingService, 'startAll'>,
  logger: Logger,
): Promise<readonly BulkResult[]> {
  const results = await standing.startAll();
  for (const result of results.filter((entry) => entry.error)) {
    logger.warn(
      { event: 'standing.autostart_failed', name: result.name, code: result.error?.code },
      result.error?.message ?? 'auto-start failed',
    );
  }
  return results;
}
