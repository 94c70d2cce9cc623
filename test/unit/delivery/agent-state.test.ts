import { describe, expect, it } from 'vitest';
import {
  heldReason,
  nextAgentState,
  typeable,
  type AgentSignal,
  type AgentState,
} from '../../../src/delivery/agent-state.js';
import { createAgentStates } from '../../../src/delivery/agent-states.js';

describe('nextAgentState (docs/design.md §13)', () => {
  it.each<[AgentState, AgentSignal, AgentState]>([
    ['idle', 'spawned', 'starting'],
    ['exited', 'spawned', 'starting'],
    ['starting', 'ready', 'idle'],
    ['blocked', 'ready', 'idle'],
    ['starting', 'dialog', 'blocked'],
    ['idle', 'dialog', 'idle'],
    ['idle', 'prompt', 'busy'],
    ['starting', 'prompt', 'busy'],
    ['busy', 'stop', 'idle'],
    ['waiting', 'stop', 'idle'],
    // 2.1.332: the Stop of a turn with a prompt queued behind it; the queued turn runs at once.
    ['busy', 'stop-queued', 'busy'],
    ['waiting', 'stop-queued', 'busy'],
    ['idle', 'stop-queued', 'busy'],
    ['starting', 'stop-queued', 'starting'],
    ['exited', 'stop-queued', 'exited'],
    ['busy', 'permission', 'waiting'],
    ['idle', 'permission', 'waiting'],
    ['starting', 'permission', 'starting'],
    ['waiting', 'permission-ended', 'busy'],
    ['idle', 'permission-ended', 'idle'],
    // A late SessionStart (a resume) does not end a running turn.
    ['busy', 'ready', 'busy'],
    ['busy', 'exit', 'exited'],
    ['exited', 'prompt', 'exited'],
    ['exited', 'ready', 'exited'],
    // A screen the-loop cannot read blocks the session, at start or later (§13, §23).
    ['starting', 'unreadable', 'blocked'],
    ['idle', 'unreadable', 'blocked'],
    ['busy', 'unreadable', 'blocked'],
    ['waiting', 'unreadable', 'waiting'],
    ['exited', 'unreadable', 'exited'],
    ['blocked', 'readable', 'idle'],
    ['busy', 'readable', 'busy'],
  ])('%s + %s → %s', (state, signal, next) => {
    expect(nextAgentState(state, signal)).toBe(next);
  });

  it.each<[AgentState, boolean, string | undefined]>([
    ['idle', true, undefined],
    ['busy', true, undefined],
    ['starting', false, 'starting'],
    ['blocked', false, 'dialog'],
    ['waiting', false, 'permission'],
    ['exited', false, undefined],
  ])('%s: typeable %s, held for %s', (state, canType, reason) => {
    expect(typeable(state)).toBe(canType);
    expect(heldReason(state)).toBe(reason);
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
