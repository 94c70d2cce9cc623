import type { Inbox } from '../state/create-inbox.js';

/**
 * The one rule for when an inbox entry is done, for every surface (docs/design.md §9): as soon as the
 * outcome of its delivery is known, before the person is told (a reaction, a reply, a comment).
 * A crash after that may lose the acknowledgement, but can never type the message a second time;
 * an entry whose handling never got that far is done when its handling ends. Calling the returned
 * function again does nothing.
 */
export function finishOnce(inbox: Pick<Inbox<unknown>, 'done'>, key: string): () => Promise<void> {
  let finishing: Promise<void> | undefined;
  return () => (finishing ??= inbox.done(key));
}
