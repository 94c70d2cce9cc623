import { randomUUID } from 'node:crypto';
import type { EventSink } from '../state/event-log.js';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { FleetOutbox } from './create-fleet-outbox.js';
import type { FleetEnvelope, FleetTarget, SlackFleetTarget } from './fleet-envelope.js';
import type { FleetLink } from './fleet-link.js';
import { bindingKey, githubSubject, instanceSubject } from './fleet-names.js';
import type { FleetOwners } from './fleet-owners.js';
import { offlineNotice } from './offline-notice.js';
import type { createPresenceView } from './presence-view.js';
import { slackOwnerQuery, type OwnerLookup } from './slack-owner-query.js';

/**
 * What the receiving instance does with an envelope (docs/design.md §21): publish it to its owner
 * (Slack: `loop.in.<owner>`; GitHub: `loop.gh`, for every instance) and resolve after the PubAck;
 * with NATS down, handle its own at once and keep the rest in the outbox until NATS is back.
 */
export function createFleetRouter(options: {
  readonly link: FleetLink;
  readonly owners: FleetOwners;
  readonly outbox: FleetOutbox;
  readonly presence: ReturnType<typeof createPresenceView>;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly now: () => number;
  /** When this instance joined: an owner never seen live is offline at least since then. */
  readonly startedMs: number;
  readonly localOwns: (lookup: OwnerLookup) => Promise<boolean>;
  readonly slack: () => SlackFleetTarget | undefined;
  readonly github: () => FleetTarget | undefined;
}) {
  const { link, owners, outbox, presence, events, logger, now } = options;
  const me = link.me;
  const noticed = offlineNotice({ now });
  const errorText = (error: unknown): string =>
    error instanceof Error ? error.message : String(error);

  const publish = async (to: string, envelope: FleetEnvelope): Promise<void> => {
    const bus = link.bus();
    if (!bus) throw new LoopError('fleet_down', 'the fleet is down');
    const subject = envelope.source === 'github' ? githubSubject : instanceSubject(to);
    await bus.publish(subject, JSON.stringify({ ...envelope, to }), envelope.id);
    events.record('fleet.routed', { from: me, to, kind: envelope.kind });
  };

  const tellOffline = async (to: string, envelope: FleetEnvelope): Promise<void> => {
    const slack = options.slack();
    if (to === me || presence.live(to) || !slack) return;
    const event = envelope.body['event'] as Record<string, unknown> | undefined;
    const channel = event?.['channel'];
    const threadTs = event?.['thread_ts'];
    if (typeof channel !== 'string' || typeof threadTs !== 'string') return;
    const since = presence.lastSeen(to) ?? options.startedMs;
    const text = noticed.once(to, bindingKey(channel, threadTs), since);
    if (text) await slack.notice(channel, threadTs, text);
  };

  return {
    /** Publishes what waited in the outbox, oldest first; stops at the first failure. */
    async flushOutbox(): Promise<void> {
      for (const { key, value } of await outbox.list()) {
        if (!link.up()) return;
        try {
          const to =
            value.source === 'github'
              ? '*'
              : await owners.ownerOf(slackOwnerQuery(value.type, value.body).lookup);
          await publish(to, value);
          await outbox.remove(key);
        } catch (error) {
          logger.warn({ event: 'fleet.outbox_failed', err: error }, 'outbox not flushed yet');
          return;
        }
      }
    },

    async takeSlack(type: string, body: Record<string, unknown>): Promise<void> {
      const query = slackOwnerQuery(type, body);
      const envelope: FleetEnvelope = {
        id: query.id ?? randomUUID(),
        source: 'slack',
        type,
        kind: query.kind,
        body: query.body,
        from: me,
        receivedAt: now(),
      };
      if (link.up()) {
        try {
          const to = await owners.ownerOf(query.lookup);
          await publish(to, envelope);
          void tellOffline(to, envelope).catch((error: unknown) => {
            logger.warn({ event: 'fleet.notice_failed', err: error }, 'offline notice not sent');
          });
          return;
        } catch (error) {
          link.markDown(errorText(error));
        }
      }
      const slack = options.slack();
      if (slack && (await options.localOwns(query.lookup))) await slack.deliver(envelope);
      else await outbox.put(envelope);
    },

    async takeGithub(id: string, type: string, body: Record<string, unknown>): Promise<void> {
      const envelope: FleetEnvelope = {
        ...{ id, source: 'github', type, kind: 'github', body },
        ...{ from: me, receivedAt: now() },
      };
      if (link.up()) {
        try {
          await publish('*', envelope);
          return;
        } catch (error) {
          link.markDown(errorText(error));
        }
      }
      // Handled here now, and for the others once NATS is back; the delivery id dedupes ours.
      await outbox.put(envelope);
      await options.github()?.deliver(envelope);
    },
  };
}
