import type { Logger } from '../../log/create-logger.js';
import { standingTarget } from '../../refs.js';
import type { StandingObserver } from '../../standing/create-standing-service.js';
import {
  partialFileMaxAgeMs,
  removeSessionFiles,
  sessionFilesMaxAgeMs,
  sweepSessionFiles,
} from './sweep-session-files.js';

export interface SessionFilesKeeper {
  readonly observer: StandingObserver;
  /** Sweeps once now: files older than a week, `.part` leftovers older than `partMaxAgeMs`. */
  sweep(partMaxAgeMs?: number): Promise<void>;
  /** The start sweep (every `.part` file goes: no download runs yet), then one every interval. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the files people sent from Slack in step with their sessions (docs/design.md §17, §18):
 * a deleted session's folder goes with it; files older than a week and the `.part` leftovers of
 * a download cut off by a crash go at serve start and every hour while serving. Neither failing
 * stops anything; each says so in the log.
 */
export function sessionFilesKeeper(
  stateRoot: string,
  logger: Logger,
  options: { readonly intervalMs?: number; readonly clock?: () => number } = {},
): SessionFilesKeeper {
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  const clock = options.clock ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const sweep = (partMaxAgeMs = partialFileMaxAgeMs): Promise<void> =>
    sweepSessionFiles(stateRoot, clock(), sessionFilesMaxAgeMs, partMaxAgeMs).then(
      (removed) => {
        if (removed) logger.info({ event: 'files.swept', removed }, 'removed old files');
      },
      (error: unknown) => logger.warn({ event: 'files.sweep_failed', err: error }, 'not swept'),
    );
  return {
    observer: {
      deleted: (name) => {
        removeSessionFiles(stateRoot, standingTarget(name)).catch((error: unknown) =>
          logger.warn({ event: 'files.remove_failed', name, err: error }, 'files not removed'),
        );
      },
    },
    sweep,
    async start() {
      await sweep(0);
      timer = setInterval(() => {
        // One sweep at a time: a slow disk must not pile them up.
        running ??= sweep().finally(() => (running = undefined));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
