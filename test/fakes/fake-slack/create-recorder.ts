import { EventEmitter } from 'node:events';

/** An ordered record of what happened, with a way to wait for an entry without polling. */
export interface Recorder<T> {
  readonly items: readonly T[];
  add(item: T): void;
  /**
   * Resolves with the first entry, already recorded or still to come, that matches; rejects after
   * `timeoutMs` naming `what` it waited for.
   */
  waitFor(predicate: (item: T) => boolean, timeoutMs: number, what: string): Promise<T>;
  reset(): void;
  /** Rejects every pending wait, so a stopped fake leaves no timer behind. */
  close(): void;
}

export function createRecorder<T>(): Recorder<T> {
  const items: T[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);

  function waitFor(predicate: (item: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    const found = items.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        events.off('item', onItem);
        events.off('close', onClose);
      };
      const onItem = (item: T) => {
        if (!predicate(item)) return;
        finish();
        resolve(item);
      };
      const onClose = () => {
        finish();
        reject(new Error(`fake Slack stopped while waiting for ${what}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`fake Slack: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      events.on('item', onItem);
      events.on('close', onClose);
    });
  }

  return {
    items,
    add(item) {
      items.push(item);
      events.emit('item', item);
    },
    waitFor,
    reset() {
      items.length = 0;
    },
    close() {
      events.emit('close');
    },
  };
}
