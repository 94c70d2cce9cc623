import { describe, expect, it } from 'vitest';
import {
  heldReason,
  nextAgentState,
  typeable,
  type AgentSignal,
  type AgentState,
} from '../../../src/delivery/agent-state-machine.js';

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
