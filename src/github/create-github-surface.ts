import path from 'node:path';
import { Octokit } from '@octokit/rest';
import type { RequestListener } from 'node:http';
import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import type { EventSink } from '../state/event-log.js';
import type { Logger } from '../log/create-logger.js';
import type { Permissions } from '../permissions/create-permissions.js';
import type { ReplySink } from '../replies/reply-router.js';
import { redactOctokit } from '../redact/redact-octokit.js';
import type { Redactor } from '../redact/redact-text.js';
import { workItemRef } from '../refs.js';
import { createIntake, type LocalIntake } from '../intake/intake.js';
import type { DedupeLedger } from '../intake/dedupe-ledger.js';
import type { StatePaths } from '../state/state-paths.js';
import type { WorkItemService } from '../workitems/create-workitem-service.js';
import { createCommentHandler } from './create-comment-handler.js';
import { createGithubResponder } from './create-github-responder.js';
import { createGithubPoster } from './create-github-poster.js';
import { createPermissionGithub } from './create-permission-github.js';
import { createPoller } from './create-poller.js';
import { createWebhookIngress } from './create-webhook-ingress.js';
import { githubOverFleet, type GithubFleet } from './github-over-fleet.js';
import type { GithubPlan } from './decide-github.js';
import { commentDedupeIds, isGithubComment, type GithubComment } from './github-comment.js';

export interface GithubSurface {
  readonly poster: ReplySink;
  readonly httpRoutes: Readonly<Record<string, RequestListener>>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One poll round now (when the poller is on). */
  pollOnce(): Promise<void>;
  idle(): Promise<void>;
}

/**
 * GitHub (docs/design.md §7): webhook and poller feed one inbox; each comment is recorded and its ids
 * claimed before it is judged, so the same comment seen twice — redelivered, or by both
 * ingresses — is handled once, and one accepted before a crash is handled after it.
 */
export function createGithubSurface(options: {
  readonly config: Config;
  readonly plan: GithubPlan;
  readonly paths: StatePaths;
  readonly workItems: WorkItemService;
  /** The one ledger of seen ids serve keeps for both surfaces. */
  readonly ledger: DedupeLedger;
  readonly delivery: DeliveryCore;
  readonly events: EventSink;
  readonly logger: Logger;
  /** Permission requests of work-item sessions are posted and answered on their issue (§14). */
  readonly permissions?: Permissions;
  /** Runs on every comment Octokit sends (docs/design.md §18). */
  readonly redactor: Redactor;
  /** Set when this instance is in a fleet: every comment goes through `loop.gh` (§21). */
  readonly fleet?: GithubFleet;
}): GithubSurface {
  const { config, plan, paths, events } = options;
  const logger = options.logger.child({ surface: 'github' });
  const octokit = new Octokit({
    auth: plan.token,
    ...(plan.apiUrl ? { baseUrl: plan.apiUrl } : {}),
    userAgent: 'the-loop',
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
    // Retries are ours (callGithub), where rate limits and server errors are handled visibly.
    request: { retries: 0 },
  });
  redactOctokit(octokit, options.redactor);
  const host = plan.apiUrl ? apiHost(plan.apiUrl) : 'github.com';
  const actions = createGithubResponder({ octokit, instance: config.instance.name, logger });
  const permissions = options.permissions
    ? createPermissionGithub({ config, actions, permissions: options.permissions, logger })
    : undefined;
  const handle = createCommentHandler({
    config,
    actions,
    workItems: options.workItems,
    delivery: options.delivery,
    events,
    ...(permissions ? { permissions } : {}),
  });
  const { ledger } = options;
  const intake = createIntake({
    dir: path.join(paths.inbox, 'github'),
    validate: isGithubComment,
    ledger,
    idsOf: commentDedupeIds,
    laneOf: (comment) => workItemRef(comment.item).toLowerCase(),
    logFields: (comment) => ({
      commentId: comment.commentId,
      ...(comment.deliveryId ? { deliveryId: comment.deliveryId } : {}),
    }),
    handle,
    handled: (comment, outcome) => {
      events.record('github.handled', {
        outcome,
        workItem: workItemRef(comment.item),
        commentId: comment.commentId,
        source: comment.source,
      });
    },
    duplicate: (comment) => {
      events.record('github.duplicate', { commentId: comment.commentId, source: comment.source });
    },
    logger,
  });
  // A delivery is answered once its comment is recorded (in a fleet: once JetStream has it);
  // judging it comes after. The fleet hands what it routes here to `intake.accept` as well.
  const local: LocalIntake<GithubComment> = intake.accept;
  const accept = options.fleet ? githubOverFleet(options.fleet, local, logger) : local;

  const poller = plan.poll
    ? createPoller({
        config,
        octokit,
        host,
        cursorDir: path.join(paths.root, 'github', 'poll'),
        accept,
        logger,
        ...(options.fleet ? { lease: options.fleet.pollLease } : {}),
      })
    : undefined;

  return {
    poster: createGithubPoster({ config, actions }),
    httpRoutes:
      plan.webhookSecret !== undefined
        ? {
            [config.github.webhook.path]: createWebhookIngress({
              secret: plan.webhookSecret,
              accept,
              logger,
            }),
          }
        : {},
    async start() {
      await intake.recover();
      poller?.start();
    },
    async stop() {
      await poller?.stop();
    },
    pollOnce: async () => poller?.pollOnce(),
    idle: () => intake.idle(),
  };
}

/**
 * The host polled work items live on: a GitHub Enterprise Server API is served under `/api/v3` on
 * its own host; anything else (the public API, a test double) is github.com.
 */
function apiHost(apiUrl: string): string {
  try {
    const url = new URL(apiUrl);
    return url.pathname.startsWith('/api/v3') ? url.host.toLowerCase() : 'github.com';
  } catch {
    return 'github.com';
  }
}
