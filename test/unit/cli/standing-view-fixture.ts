import type { StandingView } from '../../../src/standing/standing-types.js';

/** A standing session as serve reports it; override what a test is about. */
export function standingView(overrides: Partial<StandingView> = {}): StandingView {
  return {
    name: 'demo',
    ref: 'standing:demo',
    source: 'declared',
    description: 'a plain shell',
    harness: 'shell',
    cwd: '/work/repo',
    autoStart: true,
    status: 'running',
    agentState: 'idle',
    tmux: 'live',
    createdAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}
