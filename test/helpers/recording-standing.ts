import { LoopError } from '../../src/errors.js';
import type { StandingService } from '../../src/standing/create-standing-service.js';
import type { StandingSlackThread, StandingView } from '../../src/standing/standing-types.js';

export interface StandingCall {
  readonly verb: string;
  readonly args: readonly unknown[];
}

/**
 * A StandingService that records every call and answers from `sessions`; `failNext` makes the next
 * call of that verb throw, so a surface's error path is reached without tmux.
 */
export function recordingStanding(sessions: StandingView[] = []) {
  const calls: StandingCall[] = [];
  const failures = new Map<string, LoopError>();
  const threads = new Map<string, StandingSlackThread>();
  const called = (verb: string, ...args: unknown[]): void => {
    calls.push({ verb, args });
    const failure = failures.get(verb);
    if (failure) {
      failures.delete(verb);
      throw failure;
    }
  };
  const view = (name: string): StandingView => {
    const found = sessions.find((session) => session.name === name);
    if (!found) throw new LoopError('not_found', `No standing session named ${name}.`);
    return found;
  };

  const service: StandingService = {
    async list() {
      called('list');
      return sessions;
    },
    async get(name) {
      called('get', name);
      return view(name);
    },
    async start(name) {
      called('start', name);
      return { outcome: 'started', session: view(name) };
    },
    async stop(name) {
      called('stop', name);
      return { outcome: 'stopped', session: view(name) };
    },
    async restart(name) {
      called('restart', name);
      return { outcome: 'resumed', session: view(name) };
    },
    async say(name, text, actor) {
      called('say', name, text, actor);
      throw new LoopError('internal', 'say is not used by these tests');
    },
    async create(input) {
      called('create', input);
      return { session: standingView(String(input.name)), outcome: 'started' };
    },
    async delete(name) {
      called('delete', name);
    },
    async startAll() {
      called('startAll');
      return [];
    },
    async stopAll() {
      called('stopAll');
      return [];
    },
    async nameForToken() {
      return undefined;
    },
    async interrupt(name) {
      called('interrupt', name);
    },
    async recordSlackThread(name, binding) {
      called('recordSlackThread', name, binding);
      threads.set(name, binding);
    },
    async hasRunning() {
      return false;
    },
    async noticeExits() {
      return undefined;
    },
    async markExited() {
      return undefined;
    },
  };
  return {
    service,
    calls,
    threads,
    failNext(verb: keyof StandingService, error: LoopError): void {
      failures.set(verb, error);
    },
  };
}

/** A running standing session as the API shows it. */
export function standingView(name: string, overrides: Partial<StandingView> = {}): StandingView {
  return {
    name,
    ref: `standing:${name}`,
    source: 'created',
    description: '',
    harness: 'claude',
    cwd: '/work/repo',
    autoStart: true,
    status: 'running',
    agentState: null,
    tmux: 'live',
    ...overrides,
  };
}
