import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../../src/state/group-commit.js';

/** A write the test finishes by hand, to hold it "in flight". */
function controlledWrites() {
  const writes: Array<{ items: readonly string[]; finish: (error?: Error) => void }> = [];
  const write = (items: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { writes, write };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('writes what is submitted in one tick together, and what comes while it writes next', async () => {
    const { writes, write } = controlledWrites();
    const submit = createGroupCommit(write);
    const first = [submit('a'), submit('b')];
    await settle();
    expect(writes.map((each) => each.items)).toEqual([['a', 'b']]);

    const second = [submit('c'), submit('d')];
    await settle();
    // One write at a time: c and d wait for a and b.
    expect(writes).toHaveLength(1);
    let firstSettled = false;
    void Promise.all(first).then(() => (firstSettled = true));
    await settle();
    expect(firstSettled).toBe(false);

    writes[0]?.finish();
    await Promise.all(first);
    await settle();
    expect(writes.map((each) => each.items)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    writes[1]?.finish();
    await Promise.all(second);

    // Idle again: the next submission is written at once, alone.
    const third = submit('e');
    await settle();
    expect(writes.map((each) => each.items).at(-1)).toEqual(['e']);
    writes[2]?.finish();
    await third;
  });

  it('rejects every submission of a failed write, and only those', async () => {
    const { writes, write } = controlledWrites();
    const submit = createGroupCommit(write);
    const failing = [submit('a'), submit('b')].map((p) =>
      p.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    await settle();
    const later = submit('c');
    writes[0]?.finish(new Error('disk full'));
    expect(await Promise.all(failing)).toEqual(['disk full', 'disk full']);
    await settle();
    expect(writes[1]?.items).toEqual(['c']);
    writes[1]?.finish();
    await expect(later).resolves.toBeUndefined();
  });

  it('starts the write at once, inside the tick, once the oldest waiting item is maxDelayMs old', async () => {
    const { writes, write } = controlledWrites();
    let now = 0;
    const submit = createGroupCommit(write, { maxDelayMs: 10, now: () => now });
    const early = [submit('a'), submit('b')];
    now = 9;
    early.push(submit('c'));
    // Still young: it waits for the end of the tick like any other.
    expect(writes).toHaveLength(0);
    now = 10;
    early.push(submit('d'));
    // No setImmediate in between: a long run of socket reads gets its writes, and its acks,
    // while it is still being read.
    expect(writes.map((each) => each.items)).toEqual([['a', 'b', 'c', 'd']]);

    // While that write runs, the next items wait for it, however old they get.
    const later = submit('e');
    now = 50;
    const last = submit('f');
    expect(writes).toHaveLength(1);
    writes[0]?.finish();
    await Promise.all(early);
    await settle();
    expect(writes.map((each) => each.items).at(-1)).toEqual(['e', 'f']);
    writes[1]?.finish();
    await Promise.all([later, last]);

    // The end-of-tick write still comes for what is young when the tick ends.
    const young = submit('g');
    await settle();
    expect(writes.map((each) => each.items).at(-1)).toEqual(['g']);
    writes[2]?.finish();
    await young;
  });
});
