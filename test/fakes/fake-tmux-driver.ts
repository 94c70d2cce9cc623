import { LoopError } from '../../src/errors.js';
import { parseTmuxVersion } from '../../src/tmux/parse-tmux-version.js';
import type { SessionInfo, SpawnSpec, TmuxDriver } from '../../src/tmux/tmux-driver.js';

/**
 * An in-memory TmuxDriver for unit tests of what sits above the driver: it keeps sessions in a
 * map, records every call, and can be told to fail one operation. Integration tests use the real
 * driver on a private tmux server.
 */
export interface FakeTmuxDriver extends TmuxDriver {
  readonly calls: string[];
  readonly sessions: Map<string, SessionInfo & { argv: readonly string[]; pasted: string[] }>;
  failNext(operation: 'spawn' | 'terminate' | 'paste', error: Error): void;
}

export function createFakeTmuxDriver(): FakeTmuxDriver {
  const sessions: FakeTmuxDriver['sessions'] = new Map();
  const calls: string[] = [];
  const failures = new Map<string, Error>();
  let pid = 1000;
  const maybeFail = (operation: string): void => {
    const error = failures.get(operation);
    if (!error) return;
    failures.delete(operation);
    throw error;
  };
  const ours = (name: string, owner: string) => {
    const session = sessions.get(name);
    if (!session)
      throw new LoopError('session_not_running', `tmux session \`${name}\` is not running`);
    if (session.owner !== owner)
      throw new LoopError('foreign_session', `tmux session \`${name}\` is not ours`);
    return session;
  };
  return {
    calls,
    sessions,
    failNext(operation, error) {
      failures.set(operation, error);
    },
    version: async () => parseTmuxVersion('tmux 3.3a'),
    globalEnvironmentNames: async () => [],
    async probe(name) {
      calls.push(`probe ${name}`);
      const session = sessions.get(name);
      return session
        ? { name, state: session.state, owner: session.owner }
        : { name, state: 'absent', owner: '' };
    },
    async listSessions() {
      calls.push('list');
      return { ok: true, sessions: new Map([...sessions].map(([name, info]) => [name, info])) };
    },
    async spawn(spec: SpawnSpec) {
      calls.push(`spawn ${spec.name}`);
      maybeFail('spawn');
      if (sessions.has(spec.name)) throw new LoopError('conflict', 'duplicate session');
      pid += 1;
      sessions.set(spec.name, {
        name: spec.name,
        state: 'live',
        owner: spec.owner,
        panePid: pid,
        argv: spec.argv,
        pasted: [],
      });
    },
    async paste(name, owner, text) {
      calls.push(`paste ${name}`);
      maybeFail('paste');
      ours(name, owner).pasted.push(text);
    },
    async sendKeys(name, owner, keys) {
      calls.push(`keys ${name} ${keys.join(' ')}`);
      ours(name, owner);
    },
    async attachedClients() {
      return 0;
    },
    async capture(name) {
      return sessions.get(name)?.pasted.join('\n') ?? '';
    },
    async terminate(name, owner) {
      calls.push(`terminate ${name}`);
      maybeFail('terminate');
      if (!sessions.has(name)) return;
      ours(name, owner);
      sessions.delete(name);
    },
    async clearDead(name, owner) {
      calls.push(`clear ${name}`);
      if (!sessions.has(name)) return;
      ours(name, owner);
      sessions.delete(name);
    },
  };
}
