import { setTimeout as delay } from 'node:timers/promises';
import type { HarnessConfig } from '../config/types.js';
import type { ReadinessTracker } from '../delivery/readiness-tracker.js';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { findExecutable } from './find-executable.js';
import type { HarnessAdapter, LaunchPlan } from './harness-adapter.js';
import { watchScreenReadiness } from './watch-screen-readiness.js';

export interface LaunchRequest {
  readonly tmuxName: string;
  readonly owner: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly harnessName: string;
  readonly harness: HarnessConfig;
  readonly args: readonly string[];
  readonly conversationId?: string;
}

export interface LaunchResult {
  readonly conversationId?: string;
  /** Running on the requested conversation. */
  readonly resumed: boolean;
  /** A conversation was requested but the harness could not resume it: a fresh one runs instead. */
  readonly resumeFailed: boolean;
  readonly confirms: boolean;
}

export interface SessionLauncher {
  launch(request: LaunchRequest): Promise<LaunchResult>;
}

export interface SessionLauncherOptions {
  readonly driver: TmuxDriver;
  readonly readiness: ReadinessTracker;
  readonly adapters: readonly HarnessAdapter[];
  readonly loopCommand: readonly string[];
  readonly harnessDir: string;
  /** How long a resumed harness must stay up (or say it is ready) to count as resumed. */
  readonly resumeProbeMs: number;
  readonly screenReadyTimeoutMs: number;
  readonly pathVariable: string;
  readonly logger: Logger;
}

/**
 * Starts a harness in a tmux session: checks the program exists, spawns it, and for a resume
 * watches whether the harness survives; one that dies (the conversation is gone) is replaced by a
 * fresh conversation so the session still starts.
 */
export function createSessionLauncher(options: SessionLauncherOptions): SessionLauncher {
  const { driver, readiness, logger } = options;

  const adapterFor = (harness: HarnessConfig): HarnessAdapter => {
    const adapter = options.adapters.find((candidate) => candidate.kind === harness.kind);
    if (!adapter)
      throw new LoopError('harness_unknown', `no adapter for harness kind ${harness.kind}`);
    return adapter;
  };

  const spawnPlan = async (request: LaunchRequest, plan: LaunchPlan): Promise<void> => {
    readiness.spawned(request.tmuxName);
    try {
      await driver.spawn({
        name: request.tmuxName,
        cwd: request.cwd,
        argv: plan.argv,
        env: request.env,
        owner: request.owner,
      });
    } catch (error) {
      readiness.forget(request.tmuxName);
      throw error;
    }
    if (plan.readiness.kind === 'screen') {
      void watchScreenReadiness({
        driver,
        readiness,
        tmuxName: request.tmuxName,
        ...(plan.readiness.pattern ? { pattern: plan.readiness.pattern } : {}),
        settleMs: plan.readiness.settleMs,
        timeoutMs: options.screenReadyTimeoutMs,
        logger,
      });
    }
  };

  /** True when the harness is ready or still alive at the end of the probe; false if it died. */
  const survivesProbe = async (tmuxName: string): Promise<boolean> => {
    const deadline = Date.now() + options.resumeProbeMs;
    for (;;) {
      const state = (await driver.probe(tmuxName)).state;
      if (state === 'dead' || state === 'absent') return false;
      if (readiness.isReady(tmuxName) || Date.now() >= deadline) return true;
      await delay(50);
    }
  };

  return {
    async launch(request) {
      const adapter = adapterFor(request.harness);
      const binary = await findExecutable(request.harness.command, {
        cwd: request.cwd,
        pathVariable: options.pathVariable,
      });
      if (!binary) {
        throw new LoopError(
          'spawn_failed',
          `harness \`${request.harnessName}\` runs \`${request.harness.command}\`, which is not ` +
            `installed or not on PATH; install it or set harnesses.${request.harnessName}.command`,
          { binary: request.harness.command },
        );
      }
      const context = {
        tmuxName: request.tmuxName,
        harness: request.harness,
        args: request.args,
        loopCommand: options.loopCommand,
        harnessDir: options.harnessDir,
      };
      const plan = await adapter.plan({
        ...context,
        ...(request.conversationId ? { conversationId: request.conversationId } : {}),
      });
      await spawnPlan(request, plan);
      if (!plan.resuming) {
        return {
          ...conversation(plan),
          resumed: false,
          resumeFailed: false,
          confirms: plan.confirms,
        };
      }
      if (await survivesProbe(request.tmuxName)) {
        return {
          ...conversation(plan),
          resumed: true,
          resumeFailed: false,
          confirms: plan.confirms,
        };
      }
      logger.warn(
        { event: 'harness.resume_died', target: request.tmuxName },
        'harness exited while resuming; starting a fresh conversation',
      );
      await driver.clearDead(request.tmuxName, request.owner);
      const fresh = await adapter.plan(context);
      await spawnPlan(request, fresh);
      return {
        ...conversation(fresh),
        resumed: false,
        resumeFailed: true,
        confirms: fresh.confirms,
      };
    },
  };
}

function conversation(plan: LaunchPlan): { conversationId?: string } {
  return plan.conversationId ? { conversationId: plan.conversationId } : {};
}
