import { describe, expect, it } from 'vitest';
import { createConfirmationTracker } from '../../../src/delivery/confirmation-tracker.js';

describe('confirmation tracker', () => {
  it('confirms the pending deliveries whose tags the harness reports', async () => {
    const tracker = createConfirmationTracker();
    const first = tracker.expect('s', '02be');
    const second = tracker.expect('s', '7a1c');
    expect([...tracker.pendingTags('s')].sort()).toEqual(['02be', '7a1c']);
    expect(tracker.report('s', 'something else')).toBe(0);
    expect(tracker.report('other', '[cli · ana · 02be]\n\nhi')).toBe(0);
    expect(tracker.report('s', '[cli · ana · 02be]\n\nhi\n[cli · ana · 7a1c]\n\nho')).toBe(2);
    await expect(first.wait(1_000)).resolves.toBe(true);
    await expect(second.wait(1_000)).resolves.toBe(true);
    expect(tracker.pendingTags('s').size).toBe(0);
  });

  it('catches a report that arrives before anyone waits', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'abcd');
    tracker.report('s', '[the-loop · abcd]\n\nx');
    await expect(pending.wait(10)).resolves.toBe(true);
  });

  it('times out to false and ignores reports after cancel', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'abcd');
    await expect(pending.wait(10)).resolves.toBe(false);
    pending.cancel();
    expect(tracker.report('s', '[cli · x · abcd]')).toBe(0);
  });

  it('can be confirmed from elsewhere (the tag seen in the transcript)', async () => {
    const tracker = createConfirmationTracker();
    const pending = tracker.expect('s', 'abcd');
    pending.confirm();
    expect(pending.confirmed).toBe(true);
    await expect(pending.wait(10)).resolves.toBe(true);
  });
});
