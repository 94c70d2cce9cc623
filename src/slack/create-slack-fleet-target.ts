import type { App, ReceiverEvent } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log/create-logger.js';
import { threadSay } from './call-slack.js';
import type { ThreadBindings } from './thread-bindings.js';
import type { DedupeLedger } from '../intake/dedupe-ledger.js';
import type { LocalIntake } from '../intake/intake.js';
import type { SlackInboxMessage } from './slack-inbox-message.js';
import { inboxMessageOfBody } from './to-inbox-message.js';
import type { Fleet } from '../fleet/create-fleet.js';
import type { FleetEnvelope, SlackFleetTarget } from '../fleet/fleet-envelope.js';
import type { FleetInstanceView } from '../fleet/presence-view.js';

/**
 * The owner's side of a Slack envelope routed to it (docs/design.md §21): a thread reply goes to
 * this instance's intake through `localIntake`, the door the local receivers use (the exactly-once
 * path of a local one); a command or a click runs through
 * Bolt as if received here, its answer sent to the `response_url` since the receiver has already
 * acknowledged. A command or click runs at most once, even if JetStream hands it over again.
 */
export function createSlackFleetTarget(options: {
  readonly app: App;
  readonly client: WebClient;
  /** The Slack intake's `accept`: resolves once the reply is recorded in this instance's inbox. */
  readonly localIntake: LocalIntake<SlackInboxMessage>;
  readonly ledger: DedupeLedger;
  readonly logger: Logger;
}): SlackFleetTarget {
  const { app, client, logger } = options;
  const respond = async (body: Record<string, unknown>, response: unknown): Promise<void> => {
    const url = body['response_url'];
    if (typeof url !== 'string' || response === undefined) return;
    const answer = typeof response === 'string' ? { text: response } : response;
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(answer),
    });
    if (!sent.ok) throw new Error(`response_url answered ${sent.status}`);
  };

  return {
    async deliver(envelope: FleetEnvelope) {
      const { body } = envelope;
      if (envelope.type === 'events_api') {
        const message = inboxMessageOfBody(body, Date.now());
        if (message) await options.localIntake(message);
        else await app.processEvent({ body, ack: async () => undefined } as ReceiverEvent);
        return;
      }
      if (!(await options.ledger.claim(`fleet-${envelope.id}`))) return;
      await app.processEvent({
        body,
        ack: async (response?: unknown) => {
          await respond(body, response).catch((error: unknown) => {
            logger.warn({ event: 'slack.respond_failed', err: error }, 'answer not sent');
          });
        },
      } as ReceiverEvent);
    },
    async notice(channel, threadTs, text) {
      await threadSay(client, { channel, threadTs }, { logger, maxAttempts: 3 })(text);
    },
  };
}

/** Thread bindings that also tell the fleet which instance owns each thread. */
export function fleetThreadBindings(
  bindings: ThreadBindings,
  fleet: Fleet,
  logger: Logger,
): ThreadBindings {
  return {
    ...bindings,
    async bind(binding) {
      await bindings.bind(binding);
      await fleet
        .threadBound(binding.channel, binding.threadTs, binding.ref)
        .catch((error: unknown) => {
          logger.warn({ event: 'fleet.bind_failed', err: error }, 'thread binding not shared');
        });
    },
  };
}

/** `/loop instances`: one line per instance of the fleet. */
export function formatFleetLines(rows: readonly FleetInstanceView[]): string {
  if (rows.length === 0) return 'No instances are live in the fleet.';
  return rows
    .map((row) => {
      const state = row.live ? `live on ${row.host}, since ${row.startedAt}` : 'offline';
      const sessions = row.sessions.length ? row.sessions.join(', ') : 'no sessions';
      return `• \`${row.name}\` — ${state} — ${sessions}`;
    })
    .join('\n');
}
