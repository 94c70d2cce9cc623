import { describe, expect, it } from 'vitest';
import { createMemoryEventLog } from '../../helpers/memory-event-log.js';

describe('createMemoryEventLog', () => {
  it('keeps every record in order with the clock time, exactly as passed', async () => {
    let tick = 0;
    const log = createMemoryEventLog({ clock: () => new Date(Date.UTC(2024, 0, 1, 0, 0, tick++)) });
    log.record('delivery.delivered', { ref: 'standing:sup', text: 'kept so tests can see leaks' });
    log.record('delivery.failed');
    expect(log.events).toEqual([
      {
        ts: '2024-01-01T00:00:00.000Z',
        event: 'delivery.delivered',
        ref: 'standing:sup',
        text: 'kept so tests can see leaks',
      },
      { ts: '2024-01-01T00:00:01.000Z', event: 'delivery.failed' },
    ]);
    expect(log.closed).toBe(false);
    await log.flush();
    await log.close();
    expect(log.closed).toBe(true);
  });
});
