import type { App, AppOptions } from './app-types.js';
import { createControlServer } from './api/create-control-server.js';
import { controlRoutes } from './api/routes/control-routes.js';
import { reloadRoutes, reloadServiceState } from './api/routes/reload-routes.js';
import { surfacesOff, surfaceStates } from './api/routes/surface-states.js';
import { createKeyedQueue } from './concurrency/keyed-queue.js';
import { createConfigReloader } from './config/create-config-reloader.js';
import { createLiveConfig } from './config/live-config.js';
import { tcpListenOption } from './config/listen-address.js';
import { loadConfig } from './config/load-config.js';
import { recordedAgentStates } from './delivery/agent-states.js';
import { createConfirmationTracker } from './delivery/confirmation-tracker.js';
import { createDeliveryCore } from './delivery/create-delivery-core.js';
import { createDeliveryStatuses } from './delivery/delivery-statuses.js';
import { firstAnswer } from './delivery/first-answer.js';
import { captureStyled } from './dashboard/capture-styled.js';
import { openDashboard } from './dashboard/open-dashboard.js';
import { resolveByRefKind } from './delivery/resolve-by-ref-kind.js';
import {
  claimFleetNames,
  fleetLocalOwner,
  fleetRoutes,
  fleetServiceState,
  shareFleetPermissions,
} from './fleet/fleet-seam.js';
import { loadFleet } from './fleet/load-fleet.js';
import { loadGithubSurface } from './github/load-github-surface.js';
import { httpListenerFor } from './http/create-http-listener.js';
import { createPermissions } from './permissions/create-permissions.js';
import { screenThrough } from './permissions/watch-terminal-answers.js';
import { createRedactor, ownSecrets } from './redact/redact-text.js';
import { parseStandingRef } from './refs.js';
import { exitNotices } from './replies/exit-notices.js';
import { createReplyRouter } from './replies/reply-router.js';
import { startDialogNotices } from './replies/start-dialog-notice.js';
import { createExitWatcher } from './sessions/create-exit-watcher.js';
import { createSessionDirectory } from './sessions/create-session-directory.js';
import { createObserverSet } from './sessions/observer-set.js';
import { createServeSessionStarter } from './sessions/create-session-starter.js';
import { claudeProjectsDir } from './harness/read-transcript-tail.js';
import { filesRoot } from './slack/files/session-files-dir.js';
import { sessionFilesKeeper } from './slack/files/session-files-keeper.js';
import { loadSlackSurface } from './slack/load-slack-surface.js';
import { createThreadBindings } from './slack/thread-bindings.js';
import { autoStartAll } from './standing/auto-start-all.js';
import { eventStreamRoute } from './stream/event-stream-route.js';
import {
  createStandingService,
  type StandingObserver,
} from './standing/create-standing-service.js';
import { createStandingResolver } from './standing/create-standing-resolver.js';
import { isStandingRecord } from './standing/standing-types.js';
import { createCachedRecordStore } from './state/cached-record-store.js';
import { createDedupeLedger, createDedupePruner } from './intake/dedupe-ledger.js';
import { openState } from './state/open-state.js';
import { openTmux } from './tmux/open-tmux.js';
import {
  createWorkItemService,
  type WorkItemObserver,
} from './workitems/create-workitem-service.js';
import { createWorkItemResolver } from './workitems/create-workitem-resolver.js';
import { isWorkItemRecord } from './workitems/workitem-types.js';
import { createScreenBlocks } from './delivery/screen-blocks.js';

const stopGraceMs = 5_000;

/** The composition root of `the-loop serve`: builds every part once and wires them together. */
export async function createApp(options: AppOptions): Promise<App> {
  const { env, logger } = options;
  // Parts read the live config when they use a setting, so a reload reaches them (§22).
  const live = createLiveConfig(options.config);
  const config = live.view;
  const { paths, owner, events } = await openState(
    config.state.root,
    logger,
    config.state.eventLog,
  );
  const { socket } = config.tmux;
  const tmux = openTmux({ socket, env, owner, scratchDir: paths.tmuxScratch, logger });
  const { driver } = tmux;
  const agentStates = recordedAgentStates(events, config.tmux.socket);
  const startDialogs = startDialogNotices({ events, logger, tmuxSocket: config.tmux.socket });
  // A screen the-loop cannot read blocks its session, at start or later (docs/design.md §13).
  const screenBlocks = createScreenBlocks({
    driver,
    states: agentStates,
    logger,
    onBlocked: (session, head) => startDialogs.unreadable(session, head),
  });
  const deliveries = createDeliveryStatuses();
  const confirmations = createConfirmationTracker();
  // serve alone writes these records, so after the first listing they are read from memory.
  const store = createCachedRecordStore({
    dir: paths.standing,
    validate: isStandingRecord,
    logger,
  });
  const workItemStore = createCachedRecordStore({
    dir: paths.workitems,
    validate: isWorkItemRecord,
    logger,
  });
  const targets = resolveByRefKind({
    standing: createStandingResolver({ config, store, owner }),
    workItem: createWorkItemResolver({ config, store: workItemStore, owner }),
  });
  const look = screenThrough(targets, (name) => driver.capture(name));
  const permissions = createPermissions({ config, events, logger, look });
  // One lock per ref for the session lifecycle and the paste + Enter of a delivery.
  const lifecycle = createKeyedQueue();
  const delivery = createDeliveryCore({
    driver,
    resolve: targets,
    states: agentStates,
    confirmations,
    events,
    logger,
    lifecycle,
    timing: config.delivery,
    statuses: deliveries,
    tmuxSocket: config.tmux.socket,
    screenBlocks,
    onExited: (ref, exitStatus) => {
      const name = parseStandingRef(ref);
      void (name ? standing.markExited(name, exitStatus) : workItems.markExited(ref, exitStatus));
    },
  });
  const { tokens, starter } = createServeSessionStarter({
    config,
    env,
    loopCommand: options.loopCommand,
    harnessDir: paths.harness,
    filesRoot: filesRoot(paths.root),
    controlSocket: paths.controlSocket,
    owner,
    driver,
    states: agentStates,
    delivery,
    logger,
    onStartDialog: (request, dialog) => startDialogs.seen(request, dialog),
    screenBlocks,
  });
  const files = sessionFilesKeeper(paths.root, logger);
  const observers = createObserverSet<StandingObserver & WorkItemObserver>([files.observer]);
  const shared = { config, driver, starter, tokens, states: agentStates, events, owner, lifecycle };
  const fleet = await loadFleet({
    fleet: config.fleet,
    name: config.instance.name,
    id: owner,
    version: options.version,
    stateRoot: paths.root,
    env,
    events,
    logger,
    localOwns: fleetLocalOwner({
      ...{ config, store, permissions: permissions.registry },
      bindings: createThreadBindings({ dir: paths.slackThreads, logger }),
    }),
    sessions: async () => (await standing.list()).map((view) => view.name),
  });
  const localStanding = permissions.guardStanding(
    createStandingService({ ...shared, observers, store, delivery, stopGraceMs }),
  );
  const standing = fleet ? claimFleetNames(localStanding, fleet) : localStanding;
  if (fleet) shareFleetPermissions(permissions.registry, fleet, logger);
  const workItems = permissions.guardWorkItems(
    createWorkItemService({ ...shared, observers, store: workItemStore, stopGraceMs }),
  );
  const kinds = [standing, workItems];
  const exitWatcher = createExitWatcher({ driver, kinds, intervalMs: 1_000, logger });
  // Both surfaces claim their seen ids in the one ledger folder.
  const ledger = createDedupeLedger({ dir: paths.dedupe, logger });
  const redactor = createRedactor(ownSecrets(env));
  const surface = { config, env, paths, ledger, delivery, events, logger, permissions, redactor };
  const slack = await loadSlackSurface({
    ...surface,
    standing,
    sessionTarget: targets,
    ...(fleet ? { fleet } : {}),
  });
  const github = await loadGithubSurface({ ...surface, workItems, ...(fleet ? { fleet } : {}) });
  if (slack.surface) observers.add(slack.surface.observer);
  const posters = [slack.surface?.poster, github.surface?.poster];
  const sinks = posters.filter((sink) => sink !== undefined);
  const replies = createReplyRouter({ sinks, events, logger });
  observers.add(exitNotices(replies, logger));
  startDialogs.tellThrough(replies);
  const states = surfaceStates(paths.controlSocket, {
    slack: slack.outcome,
    github: github.outcome,
  });

  const reloader = createConfigReloader({
    live,
    load: () => loadConfig(config.configPath, { env }),
    events,
    logger,
    start: (name) => standing.start(name),
  });
  const dashboard = openDashboard({
    ...{ config, env, logger, events, permissions: permissions.registry, resolve: targets },
    services: () => (fleet ? [...states, fleetServiceState(fleet.state())] : states),
    standing: () => standing.list(),
    workItems: async () => ({ views: await workItems.list(), records: await workItems.records() }),
    agentState: (tmuxName) => agentStates.state(tmuxName),
    capture: captureStyled(tmux.runner),
    lastSeq: () => events.lastWritten(),
    say: (ref, text, signal) => {
      const name = parseStandingRef(ref);
      if (name !== undefined) return standing.say(name, text, 'dashboard', { signal });
      const origin = { surface: 'cli' as const, actor: 'dashboard' };
      return firstAnswer(delivery, { ref, text, origin, signal }, { answerWithinMs: 20_000 });
    },
  });
  const routes = [
    ...controlRoutes({
      config,
      version: options.version,
      driver,
      standing,
      workItems,
      deliveries,
      permissions,
      services: () => [
        ...states,
        reloadServiceState(config.configPath, reloader.last()),
        ...(fleet ? [fleetServiceState(fleet.state())] : []),
      ],
      directory: createSessionDirectory({ tokens, standing, workItems }),
      events,
      states: agentStates,
      confirmations,
      replies,
      logger,
      projectsDir: claudeProjectsDir(env),
      secretIn: (bytes) => redactor.secretIn(bytes),
      ...(slack.surface ? { progress: slack.surface.progress } : {}),
    }),
    ...dashboard.routes,
    eventStreamRoute({ feed: events, logger }),
    ...reloadRoutes(reloader),
    ...fleetRoutes(fleet),
  ];
  const tcp = tcpListenOption(config.api.listen, env['THE_LOOP_API_TOKEN'] ?? '');
  const server = createControlServer({ routes, logger, socketPath: paths.controlSocket, ...tcp });
  const publicRoutes = { ...slack.surface?.httpRoutes, ...github.surface?.httpRoutes };
  const http = httpListenerFor({ ...config.http, routes: publicRoutes, logger });
  const pruner = createDedupePruner({ ledger, logger });
  // Started in this order, stopped in the reverse one.
  const listening = [http, slack.surface, github.surface].filter((part) => part !== undefined);

  return {
    paths,
    standing,
    routes,
    surfacesOff: surfacesOff(states),
    reload: (trigger) => reloader.reload(trigger),
    async start() {
      await server.start();
      // Before any surface takes a message: a name held by another live instance refuses serve.
      await fleet?.start();
      await dashboard.start(routes);
      await pruner.start();
      await files.start();
      for (const part of listening) await part.start();
      await fleet?.open();
      events.record('serve.started', { instance: config.instance.name, pid: process.pid });
      // Sessions that ended while serve was away are recorded before anything is typed.
      await exitWatcher.check();
      exitWatcher.start();
      permissions.terminalAnswers.start();
      const autoStarted = config.standing.autoStart ? await autoStartAll(standing, logger) : [];
      return { autoStarted };
    },
    async stop() {
      pruner.stop();
      files.stop();
      exitWatcher.stop();
      permissions.terminalAnswers.stop();
      // Each waiting hook answers "no decision" (Claude Code keeps its dialog), and the surfaces
      // say so, while they are still connected.
      try {
        await permissions.registry.expireAll('restart');
        for (const part of [...listening].reverse()) await part.stop();
        await dashboard.stop();
        await fleet?.stop();
      } finally {
        // The control socket goes whatever else failed to stop: none is left behind (§18).
        await server.stop();
      }
      await tmux.runner.close();
      events.record('serve.stopped', { pid: process.pid });
      await events.close();
    },
  };
}
