import path from 'node:path';
import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/create-delivery-core.js';
import type { ReadinessTracker } from '../delivery/readiness-tracker.js';
import { createClaudeAdapter } from '../harness/claude-adapter.js';
import { createCommandAdapter } from '../harness/command-adapter.js';
import type { HarnessAdapter } from '../harness/harness-adapter.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { createHarnessLauncher, type HarnessLauncherOptions } from './create-harness-launcher.js';
import { createSessionStarter, type SessionStarter } from './create-session-starter.js';
import { createSessionTokens, type SessionTokens } from './session-tokens.js';
import type { ScreenBlocks } from '../delivery/screen-blocks.js';

/** How long a resumed harness must stay up to count as resumed. */
const resumeProbeMs = 3_000;

/**
 * serve's session starter with its harness adapters (Claude Code, any terminal program) and the
 * tokens it mints, which the session directory reads.
 */
export function openSessionStarter(options: {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  /** argv that runs this CLI (`[node, /abs/bin/the-loop]`): sessions' hooks call it. */
  readonly loopCommand: readonly string[];
  readonly harnessDir: string;
  /** Where files from Slack are kept, told to Claude Code sessions. */
  readonly filesRoot: string;
  readonly controlSocket: string;
  readonly owner: string;
  readonly driver: TmuxDriver;
  readonly readiness: ReadinessTracker;
  readonly delivery: DeliveryCore;
  readonly logger: Logger;
  /** A dialog showed before the harness was ready (docs/design.md §13 `blocked`). */
  readonly onStartDialog?: HarnessLauncherOptions['onStartDialog'];
  /** Where an unreadable screen at start goes (docs/design.md §13). */
  readonly screenBlocks?: ScreenBlocks;
}): { tokens: SessionTokens; starter: SessionStarter } {
  const { config, driver, readiness, logger } = options;
  const launcher = createHarnessLauncher({
    driver,
    readiness,
    adapters: [
      // Made per permission timeout, so a config reload reaches the next start's hooks.
      perSetting(
        () => config.permissions.timeoutSeconds,
        (permissionTimeoutSeconds) =>
          createClaudeAdapter({ permissionTimeoutSeconds, filesRoot: options.filesRoot }),
      ),
      createCommandAdapter(),
    ],
    loopCommand: options.loopCommand,
    harnessDir: options.harnessDir,
    resumeProbeMs,
    screenReadyTimeoutMs: config.delivery.readyTimeoutMs,
    serveEnv: options.env,
    // `the-loop post` must work inside a session: bin/ goes at the end of the session's PATH.
    loopBinDir: path.dirname(options.loopCommand.at(-1) ?? 'the-loop'),
    logger,
    ...(options.onStartDialog ? { onStartDialog: options.onStartDialog } : {}),
    ...(options.screenBlocks ? { screenBlocks: options.screenBlocks } : {}),
    unknownScreenMs: config.delivery.unknownScreenMs,
  });
  const tokens = createSessionTokens();
  const starter = createSessionStarter({
    tokens,
    config,
    launcher,
    delivery: options.delivery,
    socketPath: options.controlSocket,
    owner: options.owner,
    logger,
  });
  return { tokens, starter };
}

/** An adapter that plans with the one made for the setting's value at that moment. */
function perSetting<T>(setting: () => T, make: (value: T) => HarnessAdapter): HarnessAdapter {
  const made = new Map<T, HarnessAdapter>();
  const current = (): HarnessAdapter => {
    const value = setting();
    const adapter = made.get(value) ?? make(value);
    made.set(value, adapter);
    return adapter;
  };
  return { kind: current().kind, plan: (context) => current().plan(context) };
}
