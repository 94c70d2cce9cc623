import { randomBytes } from 'node:crypto';
import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import {
  type HarnessLauncher,
  createHarnessLauncher,
  type HarnessLauncherOptions,
} from './create-harness-launcher.js';
import { type SessionTokens, createSessionTokens } from './session-tokens.js';
import path from 'node:path';
import type { AgentStateSignals } from '../delivery/agent-states.js';
import { createClaudeAdapter } from '../harness/claude-adapter.js';
import { createCommandAdapter } from '../harness/command-adapter.js';
import type { HarnessAdapter } from '../harness/harness-adapter.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import type { ScreenBlocks } from '../delivery/screen-blocks.js';

export interface StartSpec {
  readonly ref: string;
  readonly tmuxName: string;
  readonly cwd: string;
  readonly harnessName: string;
  readonly args: readonly string[];
  readonly conversationId?: string;
  /** The first prompt of a fresh conversation (boot directive and brief); agents only. */
  readonly bootPrompt: () => string;
}

export interface StartedSession {
  readonly sessionToken: string;
  readonly conversationId?: string;
  readonly resumed: boolean;
  readonly resumeFailed: boolean;
  /** The hooks the harness runs with, for the session's record (see needsRestart). */
  readonly hooksVersion?: string;
  /**
   * Queues the boot prompt (fresh agent conversations only). Call it right after recording the
   * session as running — deliveries resolve against that record — and before anything can send
   * the session a message, so the boot prompt is first in its queue.
   */
  sendBootPrompt(): void;
}

export interface SessionStarter {
  start(spec: StartSpec): Promise<StartedSession>;
}

/**
 * What every kind of session shares when it starts: its environment (instance, ref, socket and a
 * fresh token that lets it speak only as itself), the launch, and the boot prompt.
 */
export function createSessionStarter(options: {
  readonly config: Config;
  readonly launcher: HarnessLauncher;
  readonly delivery: DeliveryCore;
  readonly socketPath: string;
  readonly owner: string;
  readonly logger: Logger;
  readonly tokens: SessionTokens;
  readonly newToken?: () => string;
}): SessionStarter {
  const { config, launcher, delivery, logger } = options;
  const newToken = options.newToken ?? (() => randomBytes(24).toString('base64url'));
  return {
    async start(spec) {
      const harness = config.harnesses[spec.harnessName];
      if (!harness) {
        throw new LoopError('harness_unknown', `harness \`${spec.harnessName}\` is not configured`);
      }
      const sessionToken = newToken();
      options.tokens.register(sessionToken, { ref: spec.ref, tmuxName: spec.tmuxName });
      const result = await launcher.launch({
        tmuxName: spec.tmuxName,
        ref: spec.ref,
        owner: options.owner,
        cwd: spec.cwd,
        env: {
          THE_LOOP_INSTANCE: config.instance.name,
          THE_LOOP_SESSION: spec.ref,
          THE_LOOP_SOCKET: options.socketPath,
          THE_LOOP_SESSION_TOKEN: sessionToken,
        },
        harnessName: spec.harnessName,
        harness,
        args: spec.args,
        ...(spec.conversationId ? { conversationId: spec.conversationId } : {}),
      });
      const sendBootPrompt = (): void => {
        if (!harness.agent || result.resumed) return;
        delivery
          .deliver({
            ref: spec.ref,
            text: spec.bootPrompt(),
            origin: { surface: 'system', actor: 'the-loop' },
          })
          .catch((error: unknown) => {
            logger.warn(
              { event: 'session.boot_failed', ref: spec.ref, err: error },
              'boot prompt not delivered',
            );
          });
      };
      return {
        sendBootPrompt,
        sessionToken,
        ...(result.conversationId ? { conversationId: result.conversationId } : {}),
        ...(result.hooksVersion ? { hooksVersion: result.hooksVersion } : {}),
        resumed: result.resumed,
        resumeFailed: result.resumeFailed,
      };
    },
  };
}

/** How long a resumed harness must stay up to count as resumed. */
const resumeProbeMs = 3_000;

/**
 * serve's session starter with its harness adapters (Claude Code, any terminal program) and the
 * tokens it mints, which the session directory reads.
 */
export function createServeSessionStarter(options: {
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
  readonly states: AgentStateSignals;
  readonly delivery: DeliveryCore;
  readonly logger: Logger;
  /** A dialog showed before the harness was ready (docs/design.md §13 `blocked`). */
  readonly onStartDialog?: HarnessLauncherOptions['onStartDialog'];
  /** Where an unreadable screen at start goes (docs/design.md §13). */
  readonly screenBlocks?: ScreenBlocks;
}): { tokens: SessionTokens; starter: SessionStarter } {
  const { config, driver, states, logger } = options;
  const launcher = createHarnessLauncher({
    driver,
    states,
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
