import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type SignalSource, waitForStop } from '../../../src/cli/cli-io.js';

describe('waitForStop', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'resolves with %s and stops listening',
    async (signal) => {
      const signals = new EventEmitter();
      const waiting = waitForStop(signals as SignalSource);
      signals.emit(signal);
      expect(await waiting).toBe(signal);
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    },
  );

  it('resolves undefined when cancelled, leaving no listener behind', async () => {
    const signals = new EventEmitter();
    const cancel = new AbortController();
    const waiting = waitForStop(signals as SignalSource, cancel.signal);
    cancel.abort();
    expect(await waiting).toBeUndefined();
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
  });
});
