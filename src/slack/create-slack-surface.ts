import { App, type Receiver } from '@slack/bolt';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import type { EventSink } from '../state/event-log.js';
import type { Logger } from '../log/create-logger.js';
import type { Permissions } from '../permissions/create-permissions.js';
import type { ReplySink } from '../replies/reply-router.js';
import type { StandingObserver, StandingService } from '../standing/create-standing-service.js';
import type { WorkItemObserver } from '../workitems/create-workitem-service.js';
import type { DedupeLedger } from '../intake/dedupe-ledger.js';
import type { StatePaths } from '../state/state-paths.js';
import type { ProgressSink } from '../hooks/hook-table.js';
import { redactSlackClient } from '../redact/redact-slack-client.js';
import type { Redactor } from '../redact/redact-text.js';
import type { Fleet } from '../fleet/create-fleet.js';
import { createProgressReporter } from './progress/create-progress-reporter.js';
import {
  closeLeftOverStatusMessages,
  createOpenStatusMessages,
} from './progress/create-open-status-messages.js';
import { createBoltLogger } from './bolt-logger.js';
import { createAnnouncer } from './create-announcer.js';
import { createChannelPacer } from './create-channel-pacer.js';
import { createHttpReceiver } from './create-http-receiver.js';
import { createQuietGate } from '../intake/acceptor.js';
import { createIntake } from '../intake/intake.js';
import { createSlackNames } from './create-slack-names.js';
import { createSlackPoster } from './create-slack-poster.js';
import { createSlashHandler } from './create-slash-handler.js';
import { createPermissionSlack } from './create-permission-slack.js';
import { createSocketReceiver } from './create-socket-receiver.js';
import { createThreadCommands } from './create-thread-commands.js';
import { createThreadHandler, type SessionTargetLookup } from './create-thread-handler.js';
import { createFileReceiver } from './files/create-file-receiver.js';
import { dedupeIds, isSlackInboxMessage, type SlackInboxMessage } from './slack-inbox-message.js';
import { createThreadBindings } from './thread-bindings.js';
import {
  createSlackFleetTarget,
  fleetThreadBindings,
  formatFleetLines,
} from './create-slack-fleet-target.js';
import { inboxMessageOfBody } from './to-inbox-message.js';

export interface SlackCredentials {
  readonly botToken: string;
  readonly appToken?: string;
  readonly signingSecret?: string;
  readonly apiUrl?: string;
}

export interface SlackSurface {
  readonly poster: ReplySink;
  /** The status message of each running turn in the session's thread (docs/design.md §15). */
  readonly progress: ProgressSink;
  readonly observer: StandingObserver & WorkItemObserver;
  /** HTTP mode only: served by the shared http listener. */
  readonly httpRoutes: Readonly<Record<string, RequestListener>>;
  /** Handles what the inbox kept from before a restart, then connects. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves when every accepted message so far has been handled (tests, shutdown). */
  idle(): Promise<void>;
}

/** Everything Slack (docs/design.md §6), built on Bolt, in one place the composition root can switch on. */
export function createSlackSurface(options: {
  readonly config: Config;
  readonly credentials: SlackCredentials;
  readonly paths: StatePaths;
  readonly standing: StandingService;
  /** The one ledger of seen ids serve keeps for both surfaces. */
  readonly ledger: DedupeLedger;
  readonly delivery: DeliveryCore;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly postIntervalMs?: number;
  /** Permission requests are posted in their session's thread and answered there (docs/design.md §14). */
  readonly permissions?: Permissions;
  /** The session a ref names (for files from Slack: its folder, and whether it is an agent). */
  readonly sessionTarget?: SessionTargetLookup;
  /** Runs on every text the client sends (docs/design.md §18). */
  readonly redactor: Redactor;
  /** Set when this instance is in a fleet: every envelope goes through it (docs/design.md §21). */
  readonly fleet?: Fleet;
}): SlackSurface {
  const { config, credentials, paths, events, fleet } = options;
  const logger = options.logger.child({ surface: 'slack' });
  const slackLogger = createBoltLogger(logger);
  const clientOptions = {
    ...(credentials.apiUrl ? { slackApiUrl: credentials.apiUrl } : {}),
    // Retries are ours (callSlack), so a 429 is honoured once, visibly, and counted.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  };
  let receiver: Receiver;
  let httpRoutes: Record<string, RequestListener> = {};
  let socket: ReturnType<typeof createSocketReceiver> | undefined;
  if (config.slack.mode === 'socket') {
    socket = createSocketReceiver({
      appToken: credentials.appToken ?? '',
      ...(credentials.apiUrl ? { slackApiUrl: credentials.apiUrl } : {}),
      intake: (body) => intake(body),
      ...(fleet ? { forward: (type, body) => fleet.takeSlack(type, body) } : {}),
      logger,
      slackLogger,
    });
    receiver = socket;
  } else {
    const http = createHttpReceiver({
      signingSecret: credentials.signingSecret ?? '',
      intake: (body) =>
        fleet && body['type'] === 'event_callback'
          ? fleet.takeSlack('events_api', body)
          : intake(body),
      ...(fleet ? { forward: (type, body) => fleet.takeSlack(type, body) } : {}),
      logger,
      slackLogger,
    });
    receiver = http.receiver;
    httpRoutes = { '/slack/events': http.requestListener };
  }
  // Initialised in connect(): Bolt's constructor would otherwise call auth.test at once and crash
  // serve with an unhandled rejection when Slack cannot be reached.
  const app = new App({
    token: credentials.botToken,
    receiver,
    logger: slackLogger,
    clientOptions,
    deferInitialization: true,
  });
  // Every outbound text passes this one client; nothing leaves unredacted (§18).
  redactSlackClient(app.client, options.redactor);
  let initialized = false;

  const localBindings = createThreadBindings({ dir: paths.slackThreads, logger });
  const bindings = fleet ? fleetThreadBindings(localBindings, fleet, logger) : localBindings;
  const statusMessages = createOpenStatusMessages(
    path.join(paths.root, 'slack', 'progress'),
    logger,
  );
  const { ledger } = options;
  const names = createSlackNames({ client: app.client, logger });
  const permissionSlack = options.permissions
    ? createPermissionSlack({
        app,
        client: app.client,
        bindings,
        permissions: options.permissions,
        names,
        approvers: () => config.slack.approvers,
        dir: path.join(paths.root, 'permissions', 'slack'),
        events,
        logger,
      })
    : undefined;
  const handle = createThreadHandler({
    client: app.client,
    bindings,
    delivery: options.delivery,
    names,
    commands: createThreadCommands({ standing: options.standing }),
    authorizedUsers: () => config.slack.authorizedUsers,
    ...(permissionSlack ? { permissionCommand: permissionSlack.threadCommand } : {}),
    ...(options.sessionTarget
      ? {
          sessionTarget: options.sessionTarget,
          receiveFiles: createFileReceiver({
            botToken: credentials.botToken,
            apiUrl: credentials.apiUrl,
            maxBytes: config.slack.files.maxBytes,
            stateRoot: paths.root,
            logger,
          }),
        }
      : {}),
  });
  const slash = createSlashHandler({
    config,
    standing: options.standing,
    ...(fleet ? { instances: async () => formatFleetLines(await fleet.list()) } : {}),
  });
  const announcer = createAnnouncer({
    config,
    client: app.client,
    bindings,
    standing: options.standing,
    events,
    logger,
  });

  const intakeOfReplies = createIntake({
    dir: path.join(paths.inbox, 'slack'),
    validate: isSlackInboxMessage,
    // The envelope's ack waits on this write: not behind the thread pool's queue (docs/design.md §10).
    synchronousWrites: true,
    ledger,
    idsOf: dedupeIds,
    laneOf: (message: SlackInboxMessage) => `${message.channel}/${message.threadTs}`,
    logFields: ({ eventId, channel, ts }) => ({ eventId, channel, messageTs: ts }),
    handle,
    accepted: ({ eventId, channel, ts }) => {
      events.record('slack.accepted', { eventId, channel, messageTs: ts });
    },
    duplicate: ({ eventId, channel, ts }) => {
      events.record('slack.duplicate', { eventId, channel, messageTs: ts });
    },
    // A burst is recorded and acknowledged first; handling it waits for a pause (docs/design.md §10). A
    // pause shorter than 50 ms is a sender's or a disk's hiccup, not the end of the burst; a
    // stream that never pauses is handled after 1 s (docs/architecture.md).
    quiet: createQuietGate({ quietMs: 50, maxWaitMs: 1_000 }),
    logger,
  });
  // Slack gets its acknowledgement once the reply is recorded (docs/design.md §9). Thread replies are
  // recorded straight from the body, before Bolt, which never sees them (docs/design.md §10).
  const intake = (body: Record<string, unknown>): Promise<void> | undefined => {
    const message = inboxMessageOfBody(body, Date.now());
    return message ? intakeOfReplies.accept(message) : undefined;
  };
  if (fleet) {
    fleet.attachSlack(
      createSlackFleetTarget({
        app,
        client: app.client,
        // The seam in front of the intake (docs/design.md §21): a routed reply enters where a local one does.
        localIntake: intakeOfReplies.accept,
        ledger,
        logger,
      }),
    );
  }
  app.command(config.slack.command, async ({ command, ack, respond }) => {
    const answer = await slash({
      text: command.text,
      userId: command.user_id,
      channelId: command.channel_id,
    });
    await ack({ response_type: 'ephemeral', text: answer.immediate });
    if (answer.later) {
      void answer.later.then((text) =>
        respond({ response_type: 'ephemeral', text }).catch((error: unknown) => {
          logger.warn({ event: 'slack.respond_failed', err: error }, 'slash follow-up not sent');
        }),
      );
    }
  });
  app.error(async (error) => {
    logger.error({ event: 'slack.listener_error', err: error }, 'Slack listener failed');
    // Rethrown so the receiver does not acknowledge: a message that could not be recorded must
    // come again from Slack rather than be lost (docs/design.md §9).
    throw error;
  });

  let stopped = false;
  let reconnect: NodeJS.Timeout | undefined;
  /** Slack being unreachable never stops serve: it keeps trying, with backoff, and says so. */
  const connect = async (attempt: number): Promise<void> => {
    try {
      if (!initialized) {
        await app.init();
        initialized = true;
      }
      await app.start();
      events.record('slack.connected', { attempt });
    } catch (error) {
      const waitMs = Math.min(60_000, 1_000 * 2 ** Math.min(attempt, 6));
      logger.warn(
        { event: 'slack.connect_failed', attempt, waitMs, err: error },
        `cannot reach Slack; trying again in ${Math.round(waitMs / 1000)} s`,
      );
      if (!stopped) reconnect = setTimeout(() => void connect(attempt + 1), waitMs);
    }
  };

  return {
    poster: createSlackPoster({
      client: app.client,
      bindings,
      pacer: createChannelPacer({ intervalMs: options.postIntervalMs ?? 1_000 }),
      logger,
    }),
    progress: createProgressReporter({
      client: app.client,
      bindings,
      mode: () => config.slack.progress,
      logger,
      open: statusMessages,
    }),
    observer: announcer,
    httpRoutes,
    async start() {
      const recovered = await intakeOfReplies.recover();
      if (recovered) events.record('slack.recovered', { count: recovered });
      await connect(1);
      // After a crash: status messages of turns serve stopped following say so (issue 21.8).
      void closeLeftOverStatusMessages({
        client: app.client,
        open: statusMessages,
        mode: config.slack.progress,
        logger,
      }).catch((error: unknown) => {
        logger.warn({ event: 'slack.progress_failed', err: error }, 'status messages not closed');
      });
      // After a crash: the old requests' hooks died with serve; their messages say so now.
      if (permissionSlack) {
        void permissionSlack.recover().catch((error: unknown) => {
          logger.warn({ event: 'slack.permission_recover_failed', err: error }, 'not recovered');
        });
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(reconnect);
      if (socket) await socket.stop();
      await app.stop();
    },
    idle: () => intakeOfReplies.idle(),
  };
}
