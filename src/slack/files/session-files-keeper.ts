import type { Logger } from '../../log/create-logger.js';
import { standingTarget } from '../../refs.js';
import type { StandingObserver } from '../../standing/create-standing-service.js';
import { removeSessionFiles, sweepSessionFiles } from './sweep-session-files.js';

/**
 * Keeps the files people sent from Slack in step with their sessions (DESIGN §17): a deleted
 * session's folder goes with it, and files older than a week go at serve start. Neither failing
 * stops anything; each says so in the log.
 */
export function sessionFilesKeeper(
  stateRoot: string,
  logger: Logger,
): { readonly observer: StandingObserver; sweep(): Promise<void> } {
  return {
    observer: {
      deleted: (name) => {
        removeSessionFiles(stateRoot, standingTarget(name)).catch((error: unknown) =>
          logger.warn({ event: 'files.remove_failed', name, err: error }, 'files not removed'),
        );
      },
    },
    sweep: () =>
      sweepSessionFiles(stateRoot, Date.now()).then(
        (removed) => {
          if (removed) logger.info({ event: 'files.swept', removed }, 'removed old files');
        },
        (error: unknown) => logger.warn({ event: 'files.sweep_failed', err: error }, 'not swept'),
      ),
  };
}
