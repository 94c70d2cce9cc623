import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { HarnessConfig } from '../config/types.js';
import type { AgentStateSignals } from '../delivery/agent-states.js';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { findExecutable } from '../harness/find-executable.js';
import type { HarnessAdapter, LaunchPlan } from '../harness/harness-adapter.js';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { writeFileAtomic } from '../state/write-file-atomic.js';
import {
  envFileText,
  sessionEnvironment,
  type SessionEnvironment,
} from '../harness/session-environment.js';
import { watchScreenReady } from './watch-screen-ready.js';
import { watchStartDialogs, type StartDialog } from './watch-start-dialogs.js';
import type { ScreenBlocks } from '../delivery/screen-blocks.js';

export interface LaunchRequest {
  readonly tmuxName: string;
  /** The session's ref (`standing:x`), for what is reported about it. */
  readonly ref?: string;
  readonly owner: string;
  readonly cwd: string;
  /** The session's own variables (THE_LOOP_*); serve's environment is added under them. */
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
  /** The version of the hooks the harness runs (claude); see needsRestart. */
  readonly hooksVersion?: string;
}

export interface HarnessLauncher {
  launch(request: LaunchRequest): Promise<LaunchResult>;
}

export interface HarnessLauncherOptions {
  readonly driver: TmuxDriver;
  readonly states: AgentStateSignals;
  readonly adapters: readonly HarnessAdapter[];
  readonly loopCommand: readonly string[];
  readonly harnessDir: string;
  /** How long a resumed harness must stay up (or say it is ready) to count as resumed. */
  readonly resumeProbeMs: number;
  readonly screenReadyTimeoutMs: number;
  /** serve's environment: sessions inherit it minus the-loop's secrets (sessionEnvironment). */
  readonly serveEnv: NodeJS.ProcessEnv;
  /** the-loop's bin/ folder, appended to the sessions' PATH. */
  readonly loopBinDir: string;
  readonly logger: Logger;
  /** A dialog showed before the harness was ready (docs/design.md §13 `blocked`): tell the session's people. */
  readonly onStartDialog?: (request: LaunchRequest, dialog: StartDialog) => void;
  /** Where an unreadable screen at start goes (docs/design.md §13): blocked, told once. */
  readonly screenBlocks?: ScreenBlocks;
  /** How long a screen may show neither input box nor known dialog (`delivery.unknownScreenMs`). */
  readonly unknownScreenMs?: number;
}

/**
 * Starts a harness in a tmux session: checks the program exists, spawns it, and for a resume
 * watches whether the harness survives; one that dies (the conversation is gone) is replaced by a
 * fresh conversation so the session still starts.
 */
export function createHarnessLauncher(options: HarnessLauncherOptions): HarnessLauncher {
  const { driver, states, logger } = options;

  const adapterFor = (harness: HarnessConfig): HarnessAdapter => {
    const adapter = options.adapters.find((candidate) => candidate.kind === harness.kind);
    if (!adapter)
      throw new LoopError('harness_unknown', `no adapter for harness kind ${harness.kind}`);
    return adapter;
  };

  const spawnPlan = async (
    request: LaunchRequest,
    plan: LaunchPlan,
    env: SessionEnvironment,
  ): Promise<void> => {
    // Mode 0600, read and removed by the pane's shell before the harness starts.
    const envFile = path.join(options.harnessDir, `${request.tmuxName}.env`);
    await ensurePrivateDir(options.harnessDir);
    // The session's own variables go as `-e` as before, so `tmux show-environment` shows them.
    const inherited = Object.fromEntries(
      Object.entries(env.set).filter(([name]) => !(name in request.env)),
    );
    await writeFileAtomic(envFile, envFileText(inherited));
    states.spawned(request.tmuxName, request.ref);
    try {
      await driver.spawn({
        name: request.tmuxName,
        cwd: request.cwd,
        argv: plan.argv,
        env: request.env,
        envFile,
        unsetEnv: env.unset,
        owner: request.owner,
      });
    } catch (error) {
      states.forget(request.tmuxName);
      throw error;
    }
    if (plan.readiness.kind === 'screen') {
      void watchScreenReady({
        driver,
        states,
        tmuxName: request.tmuxName,
        ...(plan.readiness.pattern ? { pattern: plan.readiness.pattern } : {}),
        settleMs: plan.readiness.settleMs,
        timeoutMs: options.screenReadyTimeoutMs,
        logger,
      });
    } else if (plan.readiness.startDialogs) {
      void watchStartDialogs({
        driver,
        states,
        tmuxName: request.tmuxName,
        screen: plan.readiness.startDialogs,
        timeoutMs: options.screenReadyTimeoutMs,
        onDialog: (dialog) => options.onStartDialog?.(request, dialog),
        ...(options.unknownScreenMs === undefined
          ? {}
          : { unknownScreenMs: options.unknownScreenMs }),
        ...(options.screenBlocks
          ? {
              onUnreadable: (capture: string) => {
                const reader = plan.readiness.kind === 'hook' && plan.readiness.startDialogs;
                if (!reader) return;
                options.screenBlocks?.unreadable(
                  { tmuxName: request.tmuxName, ...(request.ref ? { ref: request.ref } : {}) },
                  capture,
                  reader,
                );
              },
            }
          : {}),
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
      if (states.isReady(tmuxName) || Date.now() >= deadline) return true;
      await delay(50);
    }
  };

  return {
    async launch(request) {
      const adapter = adapterFor(request.harness);
      const env = sessionEnvironment({
        serveEnv: options.serveEnv,
        sessionVars: request.env,
        loopBinDir: options.loopBinDir,
        serverNames: await driver.globalEnvironmentNames(),
      });
      // The harness is looked up on the PATH it will run with.
      const binary = await findExecutable(request.harness.command, {
        cwd: request.cwd,
        pathVariable: env.set['PATH'] ?? '',
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
      await spawnPlan(request, plan, env);
      if (!plan.resuming) {
        return {
          ...planFacts(plan),
          resumed: false,
          resumeFailed: false,
          confirms: plan.confirms,
        };
      }
      if (await survivesProbe(request.tmuxName)) {
        return {
          ...planFacts(plan),
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
      await spawnPlan(request, fresh, env);
      return {
        ...planFacts(fresh),
        resumed: false,
        resumeFailed: true,
        confirms: fresh.confirms,
      };
    },
  };
}

function planFacts(plan: LaunchPlan): { conversationId?: string; hooksVersion?: string } {
  return {
    ...(plan.conversationId ? { conversationId: plan.conversationId } : {}),
    ...(plan.hooksVersion ? { hooksVersion: plan.hooksVersion } : {}),
  };
}
