import type { Route } from './api/route.js';
import type { ReloadAnswer } from './config/create-config-reloader.js';
import type { Config } from './config/types.js';
import type { Logger } from './log/create-logger.js';
import type { BulkResult, StandingService } from './standing/create-standing-service.js';
import type { StatePaths } from './state/state-paths.js';

/** What `the-loop serve` hands the composition root (`src/app.ts`). */
export interface AppOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** argv that runs this CLI (`[node, /abs/bin/the-loop]`): sessions' hooks call it. */
  readonly loopCommand: readonly string[];
  readonly version: string;
}

/** What `the-loop serve` runs: the parts built and wired, not yet listening. */
export interface App {
  readonly paths: StatePaths;
  readonly standing: StandingService;
  /** The control plane's route table (kept equal to schemas/openapi.yaml by a test). */
  readonly routes: readonly Route[];
  /** One line for each surface that is off, naming what turns it on. */
  readonly surfacesOff: readonly string[];
  /** Re-reads the config file (docs/design.md §22); throws its ConfigError when it is refused. */
  reload(trigger: 'signal' | 'api'): Promise<ReloadAnswer>;
  /** Starts listening, then starts the auto-start sessions. */
  start(): Promise<{ autoStarted: readonly BulkResult[] }>;
  /** Stops listening; sessions keep running, so agents work on across a restart of the bot. */
  stop(): Promise<void>;
}
