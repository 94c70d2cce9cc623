import type { FleetEnvelope, FleetTarget } from '../fleet/fleet-envelope.js';
import type { Logger } from '../log/create-logger.js';
import { isGithubComment, type GithubComment } from './github-comment.js';

/** The part of the fleet GitHub uses (docs/design.md §21); type imports only, NATS stays unloaded. */
export interface GithubFleet {
  /** Resolves once JetStream holds the delivery (or the outbox does, NATS down). */
  takeGithub(id: string, type: string, body: Record<string, unknown>): Promise<void>;
  attachGithub(target: FleetTarget): void;
  /** Whether this instance polls `repo`: one instance per repository holds its lease. */
  pollLease(repo: string): Promise<'held' | 'taken' | 'elsewhere'>;
}

/**
 * The `Nats-Msg-Id` of a comment on `loop.gh`: the webhook's `X-GitHub-Delivery`; for a polled
 * comment (no delivery) its kind, repository and id, so two pollers' publishes are one message.
 */
export function githubMessageId(comment: GithubComment): string {
  if (comment.deliveryId) return comment.deliveryId;
  const where = `${comment.item.owner}/${comment.item.repo}`.toLowerCase();
  return `poll:${comment.kind}:${where}:${comment.commentId}`;
}

/**
 * GitHub over the fleet: every comment an ingress of this instance takes goes to `loop.gh` (the
 * webhook answers after the PubAck); every comment on `loop.gh`, this instance's own included,
 * enters the local intake, which dedupes and runs the scope decision as on one machine.
 */
export function githubOverFleet(
  fleet: GithubFleet,
  intake: (comment: GithubComment) => Promise<void>,
  logger: Logger,
): (comment: GithubComment) => Promise<void> {
  fleet.attachGithub({
    async deliver(envelope: FleetEnvelope) {
      if (isGithubComment(envelope.body)) return intake(envelope.body);
      logger.warn({ event: 'fleet.bad_envelope', id: envelope.id }, 'dropped: not a comment');
    },
  });
  return (comment) =>
    fleet.takeGithub(githubMessageId(comment), comment.kind, { ...comment } as Record<
      string,
      unknown
    >);
}
