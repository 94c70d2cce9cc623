import type { Inbox } from './inbox.js';

/**
 * The moments of an inbox entry's life at which the intake asks whether it is done:
 * - `recorded`: written to the inbox folder; its sender may now be acknowledged.
 * - `duplicate`: another entry holds its ids (a twin copy, a redelivery).
 * - `handed-on`: its ids are claimed, and its lane hands it to the surface's handler.
 * - `typed`: the delivery core pressed the submitting Enter (the handler passed the intake's
 *   `typed` as the delivery's `onSubmitted`).
 * - `handled`: the handler returned its outcome, or threw; the person is not told yet.
 */
export type EntryMoment = 'recorded' | 'duplicate' | 'handed-on' | 'typed' | 'handled';

/**
 * The one rule for when an inbox entry is done, the same for every surface (docs/design.md §9):
 * at the first moment handling it again can only do harm — it is a duplicate, its message has
 * been typed, or its handling has ended — and always before the person is told (a reaction, a
 * reply, a comment). A crash after that may lose the acknowledgement but never types the message
 * a second time; a crash before it hands the entry on again after the restart, so nothing
 * accepted is lost. For a busy agent the Enter comes long before the delivery's outcome: the
 * entry goes at the Enter, not hours later.
 */
export function isDoneAt(moment: EntryMoment): boolean {
  switch (moment) {
    case 'duplicate':
    case 'typed':
    case 'handled':
      return true;
    case 'recorded':
    case 'handed-on':
      return false;
  }
}

/**
 * Marks one entry done, once: calling the returned function again does nothing and resolves when
 * the first marking is durable.
 */
export function finishOnce(inbox: Pick<Inbox<unknown>, 'done'>, key: string): () => Promise<void> {
  let finishing: Promise<void> | undefined;
  return () => (finishing ??= inbox.done(key));
}
