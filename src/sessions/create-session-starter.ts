import { randomBytes } from 'node:crypto';
import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/create-delivery-core.js';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { HarnessLauncher } from './create-harness-launcher.js';
import type { SessionTokens } from './session-tokens.js';

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
