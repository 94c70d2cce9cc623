import type { Logger } from '../log/create-logger.js';
import type { BusMessage } from './connect-fleet-bus.js';
import { parseFleetEnvelope, type FleetEnvelope, type FleetTarget } from './fleet-envelope.js';
import type { HoldStage } from '../test-hold.js';

/**
 * One message of `inst-<name>` or `gh-<name>` (docs/design.md §21): handed to this instance's
 * surface, and acked only once that surface has recorded it (its inbox holds it). A failure asks
 * for it again; a message that is no envelope, or has no surface here, is dropped (acked).
 */
export async function handleFleetMessage(
  message: BusMessage,
  targetOf: (envelope: FleetEnvelope) => FleetTarget | undefined,
  logger: Logger,
  hold: (stage: HoldStage, id: string) => Promise<void> = async () => undefined,
): Promise<void> {
  const envelope = parseFleetEnvelope(message.data);
  if (!envelope) {
    logger.warn({ event: 'fleet.bad_envelope' }, 'dropped a message that is no envelope');
    message.ack();
    return;
  }
  const target = targetOf(envelope);
  if (!target) {
    logger.warn({ event: 'fleet.no_surface', id: envelope.id, source: envelope.source }, 'dropped');
    message.ack();
    return;
  }
  if (message.redelivered) {
    // Not acked before (its instance stopped or failed mid-message): the dedupe ledger drops it.
    logger.info({ event: 'fleet.redelivered', id: envelope.id }, 'taken again');
  }
  try {
    await hold('before-record', envelope.id);
    await target.deliver(envelope);
    await hold('before-ack', envelope.id);
    message.ack();
  } catch (error) {
    logger.warn({ event: 'fleet.deliver_failed', id: envelope.id, err: error }, 'will retry');
    message.nak(1_000);
  }
}
