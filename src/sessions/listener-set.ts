/**
 * The listeners of a session service, handed to it when it is built and joined later by the
 * surfaces that need the service to be built first (Slack's announcer needs the standing service,
 * and the standing service tells the announcer). Joining is explicit here, rather than an array
 * changed after it was handed out.
 */
export interface ListenerSet<L> extends Iterable<L> {
  add(listener: L): void;
}

export function createListenerSet<L>(initial: readonly L[] = []): ListenerSet<L> {
  const listeners = [...initial];
  return {
    add(listener) {
      listeners.push(listener);
    },
    [Symbol.iterator]() {
      return listeners[Symbol.iterator]();
    },
  };
}
