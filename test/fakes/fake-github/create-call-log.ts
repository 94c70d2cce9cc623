import { EventEmitter } from 'node:events';

/** One request as the fake saw it, with the status it answered. `at` is epoch milliseconds. */
export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly status: number;
  readonly at: number;
}

export type CallLog = ReturnType<typeof createCallLog>;

/** The calls made so far, and a way to await one that has not happened yet without polling. */
export function createCallLog() {
  const calls: RecordedCall[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);

  function waitFor(matches: (call: RecordedCall) => boolean, timeoutMs: number, what: string) {
    const found = calls.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<RecordedCall>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        events.off('call', onCall);
        events.off('stop', onStop);
      };
      const onCall = (call: RecordedCall) => {
        if (!matches(call)) return;
        finish();
        resolve(call);
      };
      const onStop = () => {
        finish();
        reject(new Error(`fake GitHub stopped while waiting for ${what}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`fake GitHub: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      events.on('call', onCall);
      events.on('stop', onStop);
    });
  }

  return {
    calls: calls as readonly RecordedCall[],
    add(call: RecordedCall): void {
      calls.push(call);
      events.emit('call', call);
    },
    waitFor,
    reset(): void {
      calls.length = 0;
    },
    /** Rejects every pending wait, so a stopped fake leaves no timer running. */
    stop(): void {
      events.emit('stop');
    },
  };
}
