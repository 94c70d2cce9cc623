import { describe, expect, it } from 'vitest';
import { createInboxAcceptor, createQuietGate } from '../../../src/intake/acceptor.js';
import type { DedupeLedger } from '../../../src/intake/dedupe-ledger.js';
import type { Inbox, InboxEntry } from '../../../src/intake/inbox.js';
import { captureLogger } from '../../helpers/capture-logger.js';

const ticks = () => new Promise<void>((resolve) => setTimeout(resolve, 15));

/**
 * The quiet gate holds the work each message starts (dedupe claims, then delivery) until a burst
 * has been read. A synchronous inbox write holds the loop; while it does, nothing arrives, and a
 * write longer than quietMs looked like the end of the burst — the claims then started while
 * the rest of it was still unread, and its acks waited behind them.
 */
describe('the inbox acceptor and its quiet gate', () => {
  it('counts the quiet from the end of the write, not from the last arrival', async () => {
    let now = 0;
    const gate = createQuietGate({ quietMs: 5, maxWaitMs: 1_000, now: () => now });
    let finishWrite: (() => void) | undefined;
    const inbox: Inbox<string> = {
      add: (value) =>
        new Promise<InboxEntry<string>>((resolve) => {
          finishWrite = () => resolve({ key: 'k1', value });
        }),
      pending: () => Promise.resolve([]),
      done: () => Promise.resolve(),
      mark: () => Promise.resolve(),
    };
    const claimed: string[] = [];
    const ledger: DedupeLedger = {
      claim: (id) => {
        claimed.push(id);
        return Promise.resolve(true);
      },
      has: () => Promise.resolve(false),
      prune: () => Promise.resolve(0),
    };
    const handedOn: string[] = [];
    const acceptor = createInboxAcceptor<string>({
      inbox,
      ledger,
      idsOf: (message) => [message],
      laneOf: () => 'lane',
      handOn: (entry) => handedOn.push(entry.value),
      duplicate: () => undefined,
      quiet: gate,
      logger: captureLogger().logger,
    });

    const accepted = acceptor.accept('m1');
    // The write takes 20 ms of the loop: longer than quietMs.
    now = 20;
    finishWrite?.();
    await accepted;
    await ticks();
    expect(claimed).toEqual([]);

    // Quiet for quietMs after the write: now the burst is over.
    now = 26;
    await expect.poll(() => handedOn).toEqual(['m1']);
    expect(claimed).toEqual(['m1']);
  });
});

describe('createQuietGate', () => {
  it('releases waiters once arrivals pause for quietMs', async () => {
    let now = 0;
    const gate = createQuietGate({ quietMs: 5, maxWaitMs: 1_000, now: () => now });
    gate.touch();
    let released = false;
    const waiting = gate.wait().then(() => {
      released = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).toBe(false);
    now = 4;
    gate.touch();
    now = 8;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).toBe(false);
    now = 9;
    await waiting;
    expect(released).toBe(true);
  });

  it('releases after maxWaitMs even while arrivals keep coming', async () => {
    let now = 0;
    const gate = createQuietGate({ quietMs: 5, maxWaitMs: 20, now: () => now });
    gate.touch();
    const waiting = gate.wait();
    const timer = setInterval(() => {
      now += 1;
      gate.touch();
    }, 1);
    await waiting;
    clearInterval(timer);
    expect(now).toBeGreaterThanOrEqual(20);
    expect(now).toBeLessThan(40);
  });
});
