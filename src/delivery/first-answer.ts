import { randomUUID } from 'node:crypto';
import { behindEarlier } from './create-delivery-core.js';
import type { DeliveryCore, DeliveryRequest } from './delivery-request.js';

/** What `POST …/say` answers (docs/design.md §17). */
export interface SayAnswer {
  readonly outcome: 'delivered' | 'unconfirmed' | 'queued' | 'held';
  readonly deliveryId: string;
  readonly reason?: string;
}

/**
 * Starts a delivery and answers with the first outcome known: the final one, or `queued` /
 * `held` the moment the message has to wait. A sender is never left waiting on a queue, so it is
 * never told "failed" about a message that is typed later; `GET /api/v1/deliveries/{id}` gives
 * the rest of the story. A refusal before anything is known is thrown, as before.
 */
export function firstAnswer(
  core: DeliveryCore,
  request: Omit<DeliveryRequest, 'deliveryId' | 'onProgress'>,
  options: { readonly answerWithinMs: number; readonly newId?: () => string },
): Promise<SayAnswer> {
  const deliveryId = (options.newId ?? randomUUID)();
  return new Promise<SayAnswer>((resolve, reject) => {
    const answer = (value: SayAnswer): void => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(
      () => answer({ outcome: 'queued', deliveryId, reason: 'still waiting its turn' }),
      options.answerWithinMs,
    );
    core
      .deliver({
        ...request,
        deliveryId,
        onProgress: ({ outcome, reason }) => {
          // Waiting only for the messages before it ends soon enough to answer with the outcome.
          if (reason !== behindEarlier) answer({ outcome, deliveryId, reason });
        },
      })
      .then(
        (result) => answer({ outcome: result.outcome, deliveryId }),
        (error: unknown) => {
          clearTimeout(timer);
          // Once an answer is out, a later failure is the delivery status's to tell.
          reject(error);
        },
      );
  });
}

/** One line per outcome (docs/design.md §17); each but `delivered` says what happens next. */
export function sayLine(name: string, answer: SayAnswer): string {
  const id = `delivery ${answer.deliveryId}`;
  const follow = `GET /api/v1/deliveries/${answer.deliveryId}`;
  switch (answer.outcome) {
    case 'delivered':
      return `delivered to ${name} (${id})`;
    case 'queued':
      return `queued: ${name} takes it when ${answer.reason === 'busy' ? 'its running turn ends' : 'the messages before it are in'} (${id}; ${follow} tells the rest)`;
    case 'held':
      return `held: ${heldWhy(answer.reason)} — it goes in once that is over (${id}; ${follow} tells the rest)`;
    case 'unconfirmed':
      return (
        `unconfirmed: typed into ${name}, but its harness did not confirm the prompt ` +
        `(${id}); attach to check it arrived (\`the-loop standing get ${name}\` shows how)`
      );
  }
}

function heldWhy(reason: string | undefined): string {
  switch (reason) {
    case 'permission':
      return 'the agent is waiting for a permission decision (`the-loop permissions`)';
    case 'dialog':
      return 'a dialog is open in the session (attach with tmux and answer it)';
    case 'starting':
      return 'the session is still starting';
    case 'draft':
      return 'someone is typing in the session';
    default:
      return reason ?? 'the session cannot take it yet';
  }
}
