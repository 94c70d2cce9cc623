import { createHash } from 'node:crypto';
import type { Logger } from '../log/create-logger.js';
import { createRecordStore } from '../state/record-store.js';
import { isFleetEnvelope, type FleetEnvelope } from './fleet-envelope.js';

/**
 * Envelopes for other instances taken in while NATS is unreachable (docs/design.md §21): one file
 * each under `<state.root>/fleet/outbox/`, written before Slack is acknowledged and removed once
 * JetStream has them. The msg id keeps a second publish of the same one harmless.
 */
export function createFleetOutbox(options: { readonly dir: string; readonly logger: Logger }) {
  const store = createRecordStore({
    dir: options.dir,
    validate: isFleetEnvelope,
    logger: options.logger,
  });
  const keyOf = (envelope: FleetEnvelope): string =>
    `${String(envelope.receivedAt).padStart(15, '0')}-${createHash('sha256').update(envelope.id).digest('hex').slice(0, 16)}`;
  return {
    put: (envelope: FleetEnvelope) => store.write(keyOf(envelope), envelope),
    /** Oldest first, so a thread's messages go out in the order they came. */
    list: () => store.list(),
    remove: (key: string) => store.remove(key),
  };
}

export type FleetOutbox = ReturnType<typeof createFleetOutbox>;
