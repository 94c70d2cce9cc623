import { describe, expect, it } from 'vitest';
import { createAgentStates } from '../../../src/delivery/agent-states.js';

describe('agent states: the launcher signals', () => {
  it('counts a session it never saw spawn as ready', async () => {
    const states = createAgentStates();
    expect(states.isReady('x')).toBe(true);
    await states.waitUntilReady('x', 10);
  });

  it('holds waiters until the session reports ready', async () => {
    const states = createAgentStates();
    states.spawned('x');
    expect(states.isReady('x')).toBe(false);
    let done = false;
    const waiting = states.waitUntilReady('x', 5_000).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    states.ready('x');
    await waiting;
    expect(done).toBe(true);
  });

  it('fails a waiter with a remedy when readiness never comes', async () => {
    const states = createAgentStates();
    states.spawned('x');
    await expect(states.waitUntilReady('x', 20)).rejects.toMatchObject({
      code: 'delivery_failed',
      message: expect.stringContaining('tmux attach -r'),
    });
  });
});

describe('agent states', () => {
  it('reports each change once, with the ref it was told', () => {
    const changes: unknown[] = [];
    const states = createAgentStates({ onChange: (change) => changes.push(change) });
    states.spawned('t');
    states.signal('t', 'ready', 'standing:t');
    states.signal('t', 'ready', 'standing:t');
    states.signal('t', 'prompt');
    expect(changes).toEqual([
      { target: 't', from: undefined, to: 'starting' },
      { target: 't', ref: 'standing:t', from: 'starting', to: 'idle' },
      { target: 't', ref: 'standing:t', from: 'idle', to: 'busy' },
    ]);
  });

  it('holds a waiter while a permission question is open, telling why once', async () => {
    const states = createAgentStates();
    states.signal('t', 'permission');
    const held: string[] = [];
    let done = false;
    const waiting = states
      .waitUntilTypeable('t', { startingTimeoutMs: 10, onHeld: (reason) => held.push(reason) })
      .then(() => {
        done = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(done).toBe(false);
    expect(held).toEqual(['permission']);
    states.signal('t', 'permission-ended');
    await waiting;
    expect(states.state('t')).toBe('busy');
  });

  it('gives up on a waiter whose sender left', async () => {
    const states = createAgentStates();
    states.signal('t', 'permission');
    const gone = new AbortController();
    const waiting = states.waitUntilTypeable('t', { startingTimeoutMs: 10, signal: gone.signal });
    gone.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'delivery_cancelled' });
  });
});
