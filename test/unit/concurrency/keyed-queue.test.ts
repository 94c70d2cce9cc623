import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from '../../../src/concurrency/keyed-queue.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createKeyedQueue', () => {
  it('runs tasks for one key one at a time, in order', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const gate = deferred();
    const first = queue.run('a', async () => {
      log.push('1 start');
      await gate.promise;
      log.push('1 end');
    });
    const second = queue.run('a', async () => {
      log.push('2');
    });
    await Promise.resolve();
    expect(queue.depth('a')).toBe(2);
    expect(log).toEqual(['1 start']);
    gate.resolve();
    await Promise.all([first, second]);
    expect(log).toEqual(['1 start', '1 end', '2']);
    await Promise.resolve();
    expect(queue.depth('a')).toBe(0);
  });

  it('lets other keys run while one key is busy', async () => {
    const queue = createKeyedQueue();
    const gate = deferred();
    const log: string[] = [];
    const slow = queue.run('a', async () => {
      await gate.promise;
      log.push('a');
    });
    const other = queue.run('b', async () => {
      log.push('b');
      return 'b done';
    });
    // One turn of the event loop is enough for a task that waits on nothing; one queued behind
    // the gated task would still be waiting, and the race would answer 'b waits' instead.
    const turn = new Promise<string>((resolve) => setImmediate(() => resolve('b waits')));
    expect(await Promise.race([other, turn])).toBe('b done');
    expect(log).toEqual(['b']);
    expect(queue.depth('a')).toBe(1);
    expect(queue.depth('b')).toBe(0);
    gate.resolve();
    await slow;
    expect(log).toEqual(['b', 'a']);
  });

  it('keeps going after a failed task and passes results through', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('a', () => Promise.reject(new Error('boom')));
    const next = queue.run('a', async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
  });
});
