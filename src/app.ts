import { createControlServer, type ControlServer } from './api/create-control-server.js';
import { permissionRoutes } from './api/routes/permission-routes.js';
import { sessionRoutes } from './api/routes/session-routes.js';
import { createPermissionHook } from './permissions/create-permission-hook.js';
import { createPermissionRegistry } from './permissions/create-permission-registry.js';
import { expireStandingOnStop, expireWorkItemOnStop } from './permissions/expire-on-stop.js';
import { watchTerminalAnswers } from './permissions/watch-terminal-answers.js';
import { standingRoutes } from './api/routes/standing-routes.js';
import { statusRoutes, type ServiceState } from './api/routes/status-routes.js';
import type { Route } from './api/route.js';
import type { Config } from './config/types.js';
import { createConfirmationTracker } from './delivery/confirmation-tracker.js';
import { createKeyedQueue } from './concurrency/keyed-queue.js';
import { createExitWatcher } from './sessions/create-exit-watcher.js';
import { createDeliveryCore } from './delivery/create-delivery-core.js';
import { resolveByRefKind } from './delivery/resolve-by-ref-kind.js';
import { createAgentStates } from './delivery/agent-states.js';
import { createDeliveryLedger } from './delivery/delivery-ledger.js';
import { deliveryRoutes } from './api/routes/delivery-routes.js';
import { LoopError } from './errors.js';
import { createClaudeAdapter } from './harness/claude-adapter.js';
import { createCommandAdapter } from './harness/command-adapter.js';
import { createSessionLauncher } from './harness/create-session-launcher.js';
import { createSessionStarter } from './harness/create-session-starter.js';
import { createSessionTokens } from './harness/session-tokens.js';
import type { Logger } from './log/create-logger.js';
import {
  parseStandingRef,
  parseWorkItemRef,
  standingRef,
  standingTarget,
  workItemTarget,
} from './refs.js';
import { createReplyRouter } from './replies/reply-router.js';
import {
  createStandingService,
  type BulkResult,
  type StandingListener,
  type StandingService,
} from './standing/create-standing-service.js';
import { createStandingTargets } from './standing/create-standing-targets.js';
import { isStandingRecord } from './standing/is-standing-record.js';
import { ensurePrivateDir } from './state/ensure-private-dir.js';
import { openEventLog, prepareEventLog, type EventLog } from './state/event-log.js';
import { loadInstanceIdentity } from './state/instance-identity.js';
import { cacheRecordStore } from './state/cached-record-store.js';
import { createRecordStore } from './state/record-store.js';
import { ensureStateRoot, type StatePaths } from './state/state-paths.js';
import { createTmuxDriver } from './tmux/create-tmux-driver.js';
import { createHttpListener, type HttpListener } from './http/create-http-listener.js';
import type { SlackSurface } from './slack/create-slack-surface.js';
import { decideSlack } from './slack/decide-slack.js';
import type { GithubSurface } from './github/create-github-surface.js';
import { decideGithub } from './github/decide-github.js';
import { workItemRoutes } from './api/routes/workitem-routes.js';
import {
  createWorkItemService,
  type WorkItemListener,
} from './workitems/create-workitem-service.js';
import { createWorkItemTargets } from './workitems/create-workitem-targets.js';
import { isWorkItemRecord } from './workitems/workitem-types.js';
import type { ReplySink } from './replies/reply-router.js';
import { startDialogNotice } from './replies/start-dialog-notice.js';
import { createExecaTmuxRunner } from './tmux/tmux-runner.js';
import { createControlModeRunner } from './tmux/create-control-mode-runner.js';
import { tmuxEnvironment } from './tmux/tmux-environment.js';
import { createDedupeLedger } from './state/create-dedupe-ledger.js';
import path from 'node:path';
import { filesRoot } from './slack/files/session-files-dir.js';
import { removeSessionFiles, sweepSessionFiles } from './slack/files/sweep-session-files.js';

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
  /** The control plane's route table (kept equal to schemas/openapi.yaml by a test). */
  readonly routes: readonly Route[];
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
  await prepareEventLog(paths.events, logger);
  const events: EventLog = openEventLog({ path: paths.events, logger });

  const tmuxOptions = { socket: config.tmux.socket, env: tmuxEnvironment(env) };
  const tmuxRunner = createControlModeRunner({
    ...tmuxOptions,
    sessionName: `loop-control-${owner.slice(0, 12)}`,
    owner,
    scratchDir: paths.tmuxScratch,
    fallback: createExecaTmuxRunner(tmuxOptions),
    logger,
  });
  const driver = createTmuxDriver({
    runner: tmuxRunner,
    logger,
  });
  const permissions = createPermissionRegistry({
    timeoutMs: config.permissions.timeoutSeconds * 1000,
    events,
    logger,
  });
  const readiness = createAgentStates({
    onChange: ({ target, ref, from, to }) =>
      events.record('agent.state', { ref: ref ?? target, from: from ?? null, to }),
  });
  const deliveries = createDeliveryLedger();
  const confirmations = createConfirmationTracker();
  // serve alone writes these records, so after the first listing they are read from memory.
  const store = cacheRecordStore(
    createRecordStore({ dir: paths.standing, validate: isStandingRecord, logger }),
  );
  const workItemStore = cacheRecordStore(
    createRecordStore({ dir: paths.workitems, validate: isWorkItemRecord, logger }),
  );
  const targets = resolveByRefKind({
    standing: createStandingTargets({ config, store, owner }),
    workItem: createWorkItemTargets({ config, store: workItemStore, owner }),
  });
  // One lock per ref for the session lifecycle and the paste + Enter of a delivery.
  const lifecycle = createKeyedQueue();
  let noticeExit: (ref: string, exitStatus: number | undefined) => void = () => undefined;
  // Bound once the reply router exists: a dialog before start-up is told where the session's people are.
  let tellStartDialog: (ref: string, text: string) => void = () => undefined;
  const delivery = createDeliveryCore({
    driver,
    resolve: targets,
    states: readiness,
    confirmations,
    events,
    logger,
    timing: config.delivery,
    ledger: deliveries,
    lifecycle,
    onExited: (ref, exitStatus) => noticeExit(ref, exitStatus),
  });
  const launcher = createSessionLauncher({
    driver,
    readiness,
    adapters: [
      createClaudeAdapter({
        permissionTimeoutSeconds: config.permissions.timeoutSeconds,
        filesRoot: filesRoot(paths.root),
      }),
      createCommandAdapter(),
    ],
    loopCommand: options.loopCommand,
    harnessDir: paths.harness,
    resumeProbeMs,
    screenReadyTimeoutMs: config.delivery.readyTimeoutMs,
    serveEnv: env,
    // `the-loop post` must work inside a session: bin/ goes at the end of the session's PATH.
    loopBinDir: path.dirname(options.loopCommand.at(-1) ?? 'the-loop'),
    logger,
    onStartDialog: (request, dialog) => {
      const ref = request.ref ?? request.tmuxName;
      events.record('agent.start_dialog', { ref, dialog });
      tellStartDialog(
        ref,
        startDialogNotice(dialog, {
          tmuxName: request.tmuxName,
          ...(config.tmux.socket ? { tmuxSocket: config.tmux.socket } : {}),
        }),
      );
    },
  });
  const listeners: Array<StandingListener & WorkItemListener> = [];
  const tokens = createSessionTokens();
  const starter = createSessionStarter({
    tokens,
    config,
    launcher,
    delivery,
    socketPath: paths.controlSocket,
    owner,
    logger,
  });
  const standing = expireStandingOnStop(
    createStandingService({
      config,
      store,
      driver,
      starter,
      tokens,
      delivery,
      readiness,
      events,
      owner,
      stopGraceMs,
      listeners,
      lifecycle,
    }),
    permissions,
  );
  const workItems = expireWorkItemOnStop(
    createWorkItemService({
      config,
      store: workItemStore,
      driver,
      starter,
      tokens,
      readiness,
      events,
      owner,
      stopGraceMs,
      listeners,
      lifecycle,
    }),
    permissions,
  );
  noticeExit = (ref, exitStatus) => {
    const name = parseStandingRef(ref);
    void (name ? standing.markExited(name, exitStatus) : workItems.markExited(ref, exitStatus));
  };
  const exitWatcher = createExitWatcher({
    driver,
    services: [standing, workItems],
    intervalMs: 1_000,
    logger,
  });
  const terminalAnswers = watchTerminalAnswers({
    registry: permissions,
    look: async (ref) => {
      const target = await targets(ref);
      return target.screen?.(await driver.capture(target.tmuxName));
    },
    intervalMs: 1_000,
    logger,
  });
  const sinks: ReplySink[] = [];
  const slackDecision = decideSlack(config, env);
  const slack: SlackSurface | undefined = slackDecision.on
    ? // Loaded only when on: Bolt and its dependencies cost memory an instance without Slack keeps.
      (await import('./slack/create-slack-surface.js')).createSlackSurface({
        config,
        credentials: slackDecision.credentials,
        paths,
        standing: () => standing,
        delivery,
        events,
        logger,
        permissions,
        sessionTarget: targets,
      })
    : undefined;
  // A deleted session's files from Slack go with it (DESIGN §17).
  listeners.push({
    deleted: (name) => {
      removeSessionFiles(paths.root, standingTarget(name)).catch((error: unknown) =>
        logger.warn({ event: 'files.remove_failed', name, err: error }, 'files not removed'),
      );
    },
  });
  if (slack) {
    listeners.push(slack.listener);
    sinks.push(slack.poster);
  }
  const githubDecision = decideGithub(config, env);
  const github: GithubSurface | undefined = githubDecision.on
    ? (await import('./github/create-github-surface.js')).createGithubSurface({
        config,
        plan: githubDecision.plan,
        paths,
        workItems,
        delivery,
        events,
        logger,
        permissions,
      })
    : undefined;
  if (github) sinks.push(github.poster);
  const replies = createReplyRouter({ sinks, events, logger });
  // A session that ends by itself says so where its people are, with the remedy (DESIGN §17).
  const tellExit = (ref: string, message: string): void => {
    void replies.post(ref, `⚠️ ${message}`, 'notice').catch((error: unknown) => {
      logger.warn({ event: 'session.exit_notice_failed', ref, err: error }, 'exit not told');
    });
  };
  tellStartDialog = (ref, text) => {
    void replies.post(ref, text, 'notice').catch((error: unknown) => {
      logger.warn({ event: 'session.start_dialog_notice_failed', ref, err: error }, 'not told');
    });
  };
  listeners.push({
    exited: (name, message) => tellExit(standingRef(name), message),
    workItemExited: tellExit,
  });
  const surfacesOff = [
    ...(slackDecision.on ? [] : [slackDecision.reason]),
    ...(githubDecision.on ? githubDecision.plan.notes : [githubDecision.reason]),
  ];
  const publicRoutes = { ...slack?.httpRoutes, ...github?.httpRoutes };
  const http: HttpListener | undefined = Object.keys(publicRoutes).length
    ? createHttpListener({
        host: config.http.host,
        port: config.http.port,
        routes: publicRoutes,
        logger,
      })
    : undefined;
  const services = (): ServiceState[] => [
    { name: 'control', state: 'ok', detail: paths.controlSocket },
    // A line about a surface that is on (e.g. "github: webhook off") is a degraded part of it.
    ...surfacesOff.map((line) => {
      const name = line.startsWith('slack') ? 'slack' : 'github';
      const on = name === 'slack' ? slack !== undefined : github !== undefined;
      return { name, state: on ? ('degraded' as const) : ('off' as const), detail: line };
    }),
    ...(slack
      ? [{ name: 'slack', state: 'ok' as const, detail: `${config.slack.mode} mode` }]
      : []),
    ...(github ? [{ name: 'github', state: 'ok' as const, detail: 'token set' }] : []),
  ];

  const routes: Route[] = [
    ...statusRoutes({ config, standing, driver, services, version: options.version }),
    ...standingRoutes(standing),
    ...deliveryRoutes(deliveries),
    ...workItemRoutes({ config, workItems }),
    ...sessionRoutes({
      directory: {
        async sessionForToken(token) {
          const started = tokens.find(token);
          if (started) return started;
          const name = await standing.nameForToken(token);
          if (name) return { ref: standingRef(name), tmuxName: standingTarget(name) };
          const ref = await workItems.refForToken(token);
          const item = ref ? parseWorkItemRef(ref) : undefined;
          return ref && item ? { ref, tmuxName: workItemTarget(item) } : undefined;
        },
      },
      readiness,
      confirmations,
      replies,
      logger,
      ...(config.tmux.socket ? { tmuxSocket: config.tmux.socket } : {}),
      permissionHook: createPermissionHook(permissions),
      permissionRequestOpen: (ref) => permissions.hasOpenRequest(ref),
      endPermissionRequests: (ref) => permissions.expireRef(ref, 'terminal'),
      ...(slack ? { progress: slack.progress } : {}),
    }),
    ...permissionRoutes(permissions),
  ];
  const server: ControlServer = createControlServer({
    routes,
    logger,
    socketPath: paths.controlSocket,
    ...tcpListener(config, env),
  });

  // Seen ids are kept a week, then forgotten; both surfaces share the one ledger folder.
  const ledger = createDedupeLedger({ dir: paths.dedupe, logger });
  const pruneDedupe = async (): Promise<void> => {
    const removed = await ledger.prune().catch(() => 0);
    if (removed) logger.info({ event: 'dedupe.pruned', removed }, 'forgot old seen ids');
  };
  let pruneTimer: NodeJS.Timeout | undefined;

  return {
    paths,
    standing,
    routes,
    surfacesOff,
    async start() {
      await server.start();
      await pruneDedupe();
      await sweepSessionFiles(paths.root, Date.now()).then(
        (removed) => {
          if (removed) logger.info({ event: 'files.swept', removed }, 'removed old files');
        },
        (error: unknown) => logger.warn({ event: 'files.sweep_failed', err: error }, 'not swept'),
      );
      pruneTimer = setInterval(() => void pruneDedupe(), 6 * 60 * 60 * 1000);
      pruneTimer.unref();
      if (http) await http.start();
      if (slack) await slack.start();
      if (github) await github.start();
      events.record('serve.started', { instance: config.instance.name, pid: process.pid });
      // Sessions that ended while serve was away are recorded before anything is typed.
      await exitWatcher.check();
      exitWatcher.start();
      terminalAnswers.start();
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
      clearInterval(pruneTimer);
      exitWatcher.stop();
      terminalAnswers.stop();
      // Each waiting hook answers "no decision" (Claude Code keeps its dialog), and the surfaces
      // say so, while they are still connected.
      await permissions.expireAll('restart');
      if (github) await github.stop();
      if (slack) await slack.stop();
      if (http) await http.stop();
      await server.stop();
      await tmuxRunner.close();
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
