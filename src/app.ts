import { createControlServer, type ControlServer } from './api/create-control-server.js';
import { sessionRoutes } from './api/routes/session-routes.js';
import { standingRoutes } from './api/routes/standing-routes.js';
import { statusRoutes, type ServiceState } from './api/routes/status-routes.js';
import type { Route } from './api/route.js';
import type { Config } from './config/types.js';
import { createConfirmationTracker } from './delivery/confirmation-tracker.js';
import { createDeliveryCore } from './delivery/create-delivery-core.js';
import { createReadinessTracker } from './delivery/readiness-tracker.js';
import { LoopError } from './errors.js';
import { createClaudeAdapter } from './harness/claude-adapter.js';
import { createCommandAdapter } from './harness/command-adapter.js';
import { createSessionLauncher } from './harness/create-session-launcher.js';
import type { Logger } from './log/create-logger.js';
import { standingTarget } from './refs.js';
import { createReplyRouter } from './replies/reply-router.js';
import {
  createStandingService,
  type BulkResult,
  type StandingService,
} from './standing/create-standing-service.js';
import { createStandingTargets } from './standing/create-standing-targets.js';
import { isStandingRecord } from './standing/is-standing-record.js';
import { ensurePrivateDir } from './state/ensure-private-dir.js';
import { openEventLog, type EventLog } from './state/event-log.js';
import { loadInstanceIdentity } from './state/instance-identity.js';
import { createRecordStore } from './state/record-store.js';
import { ensureStateRoot, type StatePaths } from './state/state-paths.js';
import { createTmuxDriver } from './tmux/create-tmux-driver.js';
import { createExecaTmuxRunner } from './tmux/tmux-runner.js';

export interface AppOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** argv that runs this CLI (`[node, /abs/bin/the-loop]`): sessions' hooks call it. */
  readonly loopCommand: readonly string[];
  readonly version: string;
}

export interface App {
  readonly paths: StatePaths;
  readonly standing: StandingService;
  /** One line for each surface that is off, naming what turns it on. */
  readonly surfacesOff: readonly string[];
  /** Starts listening, then starts the auto-start sessions. */
  start(): Promise<{ autoStarted: readonly BulkResult[] }>;
  /** Stops listening; sessions keep running, so agents work on across a restart of the bot. */
  stop(): Promise<void>;
}

const stopGraceMs = 5_000;
const resumeProbeMs = 3_000;

/** The composition root of `the-loop serve`: builds every part once and wires them together. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, env, logger } = options;
  const paths = await ensureStateRoot(config.state.root, logger);
  await ensurePrivateDir(paths.harness);
  const { id: owner } = await loadInstanceIdentity(paths.root);
  const events: EventLog = openEventLog({ path: paths.events, logger });

  const driver = createTmuxDriver({
    runner: createExecaTmuxRunner({ socket: config.tmux.socket }),
    logger,
  });
  const readiness = createReadinessTracker();
  const confirmations = createConfirmationTracker();
  const store = createRecordStore({ dir: paths.standing, validate: isStandingRecord, logger });
  const delivery = createDeliveryCore({
    driver,
    resolve: createStandingTargets({ config, store, owner }),
    readiness,
    confirmations,
    events,
    logger,
    timing: config.delivery,
  });
  const launcher = createSessionLauncher({
    driver,
    readiness,
    adapters: [createClaudeAdapter(), createCommandAdapter()],
    loopCommand: options.loopCommand,
    harnessDir: paths.harness,
    resumeProbeMs,
    screenReadyTimeoutMs: config.delivery.readyTimeoutMs,
    pathVariable: env['PATH'] ?? '',
    logger,
  });
  const standing = createStandingService({
    config,
    store,
    driver,
    launcher,
    delivery,
    readiness,
    events,
    logger,
    owner,
    socketPath: paths.controlSocket,
    stopGraceMs,
  });
  const replies = createReplyRouter({ sinks: [], events, logger });
  const surfacesOff = describeSurfacesOff(config, env);
  const services = (): ServiceState[] => [
    { name: 'control', state: 'ok', detail: paths.controlSocket },
    ...surfacesOff.map((line) => ({
      name: line.startsWith('slack') ? 'slack' : 'github',
      state: 'off' as const,
      detail: line,
    })),
  ];

  const routes: Route[] = [
    ...statusRoutes({ config, standing, driver, services, version: options.version }),
    ...standingRoutes(standing),
    ...sessionRoutes({
      directory: {
        async sessionForToken(token) {
          const name = await standing.nameForToken(token);
          return name ? { ref: `standing:${name}`, tmuxName: standingTarget(name) } : undefined;
        },
      },
      readiness,
      confirmations,
      replies,
    }),
  ];
  const server: ControlServer = createControlServer({
    routes,
    logger,
    socketPath: paths.controlSocket,
    ...tcpListener(config, env),
  });

  return {
    paths,
    standing,
    surfacesOff,
    async start() {
      await server.start();
      events.record('serve.started', { instance: config.instance.name, pid: process.pid });
      const autoStarted = config.standing.autoStart ? await standing.startAll() : [];
      for (const result of autoStarted.filter((entry) => entry.error)) {
        logger.warn(
          { event: 'standing.autostart_failed', name: result.name, code: result.error?.code },
          result.error?.message ?? 'auto-start failed',
        );
      }
      return { autoStarted };
    },
    async stop() {
      await server.stop();
      events.record('serve.stopped', { pid: process.pid });
      await events.close();
    },
  };
}

function tcpListener(
  config: Config,
  env: NodeJS.ProcessEnv,
): { tcp?: { host: string; port: number; token: string } } {
  if (!config.api.listen) return {};
  const match = /^(.+):(\d{1,5})$/.exec(config.api.listen);
  if (!match?.[1] || !match[2]) {
    throw new LoopError(
      'config_invalid',
      `api.listen must be host:port, not \`${config.api.listen}\``,
    );
  }
  return {
    tcp: { host: match[1], port: Number(match[2]), token: env['THE_LOOP_API_TOKEN'] ?? '' },
  };
}

/** DESIGN §3.1: on a machine without credentials, say which surface is off and what turns it on. */
export function describeSurfacesOff(config: Config, env: NodeJS.ProcessEnv): string[] {
  const lines: string[] = [];
  if (!config.slack.enabled) lines.push('slack: off (slack.enabled is false in the config)');
  else if (!env['SLACK_BOT_TOKEN'])
    lines.push('slack: off — set SLACK_BOT_TOKEN (and SLACK_APP_TOKEN) to turn it on');
  if (!env['GITHUB_TOKEN'])
    lines.push(
      'github: off — set GITHUB_TOKEN (and GITHUB_WEBHOOK_SECRET for webhooks) to turn it on',
    );
  return lines;
}
