/**
 * The observers of a session service, handed to it when it is built and joined later by the
 * surfaces that need the service to be built first (Slack's announcer needs the standing service,
 * and the standing service tells the announcer). Joining is explicit here, rather than an array
 * changed after it was handed out.
 */
export interface ObserverSet<L> extends Iterable<L> {
  add(observer: L): void;
}

export function createObserverSet<L>(initial: readonly L[] = []): ObserverSet<L> {
  const observers = [...initial];
  return {
    add(observer) {
      observers.push(observer);
    },
    [Symbol.iterator]() {
      return observers[Symbol.iterator]();
    },
  };
}
