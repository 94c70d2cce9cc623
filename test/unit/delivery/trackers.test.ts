import { describe, expect, it } from 'vitest';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';
import { createReadinessTracker } from '../../../src/delivery/readiness-tracker.js';

describe('readiness tracker', () => {
  it('counts a session it never saw spawn as ready', async () => {
    const tracker = createReadinessTracker();
    expect(tracker.isReady('x')).toBe(true);
    await tracker.waitUntilReady('x', 10);
  });

  it('holds waiters until the session reports ready', async () => {
    const tracker = createReadinessTracker();
    tracker.spawned('x');
    expect(tracker.isReady('x')).toBe(false);
    let done = false;
    const waiting = tracker.waitUntilReady('x', 5_000).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    tracker.ready('x');
    await waiting;
    expect(done).toBe(true);
  });

  it('fails a waiter with a remedy when readiness never comes', async () => {
    const tracker = createReadinessTracker();
    tracker.spawned('x');
    await expect(tracker.waitUntilReady('x', 20)).rejects.toMatchObject({
      code: 'delivery_failed',
      message: expect.stringContaining('tmux attach -r'),
    });
  });
});

describe('confirmation tracker', () => {
  it('confirms the pending delivery whose text the harness reports', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'hello\nworld');
    expect(tracker.report('s', 'something else')).toBe(false);
    expect(tracker.report('other', 'hello\nworld')).toBe(false);
    expect(tracker.report('s', 'hello\r\nworld\n')).toBe(true);
    await expect(pending.wait(1_000)).resolves.toBe(true);
  });

  it('catches a report that arrives before anyone waits', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'x');
    tracker.report('s', 'x');
    await expect(pending.wait(10)).resolves.toBe(true);
  });

  it('times out to false and ignores reports after cancel', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'x');
    await expect(pending.wait(10)).resolves.toBe(false);
    pending.cancel();
    expect(tracker.report('s', 'x')).toBe(false);
  });
});
