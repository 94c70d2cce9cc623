import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { AgentStates } from '../delivery/agent-states.js';
import type { EventSink } from '../state/event-log.js';
import { LoopError, asLoopError, errnoCode } from '../errors.js';
import type { SessionStarter, StartSpec, StartedSession } from './create-session-starter.js';
import type { SessionTokens } from './session-tokens.js';
import type { RecordStore } from '../state/record-store.js';
import { paneInfoFor } from '../tmux/pane-state-for.js';
import type { SessionListing, TmuxDriver } from '../tmux/tmux-driver.js';
import { decideStart } from './decide-start.js';
import type { SessionStatus } from './session-status.js';

/** The fields every kind of session record has; the lifecycle reads and writes only these. */
export interface LifecycleRecord {
  readonly status: SessionStatus;
  /** Lets the session's `the-loop post` and hooks speak as this session only. */
  readonly sessionToken?: string;
  readonly conversationId?: string;
  readonly exitStatus?: number;
  readonly exitedAt?: string;
  readonly stoppedAt?: string;
}

/** One session as the lifecycle addresses it. */
export interface LifecycleSession {
  readonly ref: string;
  /** Its record's key in the kind's store. */
  readonly key: string;
  readonly tmuxName: string;
  /** What names it in events: `{name}` for standing sessions, `{ref}` for work items. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** The refusals of one kind of session, each naming its remedy. */
export interface LifecycleMessages {
  readonly foreign: (session: LifecycleSession) => string;
  readonly unrecorded: (session: LifecycleSession) => string;
  readonly tmuxUnknown: (session: LifecycleSession) => string;
  /** How people stop and start it again, e.g. "run `the-loop standing restart x`". */
  readonly restartHint: (session: LifecycleSession) => string;
}

/** What one start of one kind needs beyond the shared steps. */
export interface StartPlan<R> {
  /** Everything checked before tmux is touched (harness, cwd, brief): the rest of the spec. */
  prepare(record: R | undefined): Promise<Omit<StartSpec, 'ref' | 'tmuxName' | 'conversationId'>>;
  /** The record of the session now running. */
  running(record: R | undefined, started: StartedSession, startedAt: string): R;
}

export type StartOutcome = 'started' | 'resumed' | 'already-running';
export type StopOutcome = 'stopped' | 'already-stopped';

/** What every kind of session service is built from (the lifecycle's parts). */
export interface SessionParts {
  readonly driver: TmuxDriver;
  readonly starter: SessionStarter;
  readonly tokens: SessionTokens;
  /** What each agent is doing (docs/design.md §13): forgotten at stop, told of an exit. */
  readonly states: AgentStates;
  readonly events: EventSink;
  /** The instance id written to `@the-loop-owner`. */
  readonly owner: string;
  readonly stopGraceMs: number;
}

export interface SessionLifecycleOptions<R extends LifecycleRecord> extends SessionParts {
  /** The event prefix: `standing` or `workitem`. */
  readonly kind: string;
  readonly store: RecordStore<R>;
  readonly messages: LifecycleMessages;
  /** The session a record belongs to. */
  readonly sessionOf: (key: string, record: R) => LifecycleSession;
  readonly clock: () => Date;
  /** One lock per ref, shared with the delivery core: see `run`. */
  readonly lock?: KeyedQueue;
  /** Told once a session is recorded as exited (after the lock is released): the kind's observers. */
  readonly onExited?: (session: LifecycleSession, status: number | undefined) => void;
}

/**
 * The steps every kind of session shares (docs/design.md §5): start, stop, exit, and which token speaks for
 * which session. `start` and `stop` expect the caller to hold `run(session.ref, …)`, so a verb can
 * chain them (restart, delete) without another verb or a paste slipping in between.
 */
export interface SessionLifecycle<R extends LifecycleRecord> {
  /** Runs `task` under the ref's lock: a start, stop or delete never interleaves with a paste. */
  run<T>(ref: string, task: () => Promise<T>): Promise<T>;
  start(
    session: LifecycleSession,
    plan: StartPlan<R>,
  ): Promise<{ outcome: StartOutcome; record?: R }>;
  stop(session: LifecycleSession): Promise<StopOutcome>;
  /**
   * Records the session as exited (takes the lock) and tells `onExited`; the exit status, or
   * undefined if it had not exited (stopped, started again, or not ours).
   */
  markExited(
    session: LifecycleSession,
    exitStatus: number | undefined,
  ): Promise<{ status: number | undefined } | undefined>;
  /** Marks every running session whose pane this listing shows dead as exited. */
  noticeExits(listing: SessionListing): Promise<void>;
  hasRunning(): Promise<boolean>;
  /** The session a record's token speaks for, while that session really runs in tmux. */
  sessionForToken(token: string): Promise<LifecycleSession | undefined>;
}

export function createSessionLifecycle<R extends LifecycleRecord>(
  options: SessionLifecycleOptions<R>,
): SessionLifecycle<R> {
  const { kind, store, messages, driver, starter, tokens, states, events, owner } = options;
  const lock = options.lock ?? createKeyedQueue();
  const now = (): string => options.clock().toISOString();

  /** Records a failed step as its event (with the reason people see) and passes the error on. */
  const failedAs =
    (event: string, session: LifecycleSession) =>
    (error: unknown): never => {
      const failure = asLoopError(error);
      events.record(event, { ...session.fields, code: failure.code, reason: failure.message });
      throw failure;
    };

  const unwritten = (error: unknown, what: string): LoopError =>
    new LoopError(
      'record_write_failed',
      `${what}: its record could not be written (${errnoCode(error) ?? asLoopError(error).message}); ` +
        'free space under the state root or fix its permissions, then try again',
    );

  /** The record with the lifecycle's own fields changed; the kind's fields are kept as they are. */
  const patched = (record: R, change: Partial<LifecycleRecord>): R => {
    const { sessionToken: _revoked, ...kept } = record;
    // Only LifecycleRecord's fields change, and R extends it: the result is still an R.
    return { ...kept, ...change } as unknown as R;
  };

  /**
   * The spawn and its token are undone in reverse order when the record of the running session
   * cannot be written: a session nobody has a record of would run on with a live token, and every
   * later create, start and delete would refuse it.
   */
  const undoStart = async (session: LifecycleSession): Promise<void> => {
    await driver.clearDead(session.tmuxName, owner).catch((error: unknown) => {
      events.record(`${kind}.undo_failed`, { ...session.fields, code: asLoopError(error).code });
    });
    states.forget(session.tmuxName);
    tokens.revoke(session.ref);
  };

  const refuse = (
    session: LifecycleSession,
    reason: 'foreign' | 'unrecorded' | 'tmux-unknown',
  ): LoopError =>
    reason === 'tmux-unknown'
      ? new LoopError('tmux_unavailable', messages.tmuxUnknown(session))
      : new LoopError('foreign_session', messages[reason](session));

  const lifecycle: SessionLifecycle<R> = {
    run: (ref, task) => lock.run(ref, task),

    async start(session, plan) {
      const record = await store.read(session.key);
      const decision = decideStart(
        await driver.probe(session.tmuxName),
        owner,
        record !== undefined,
      );
      if (decision.action === 'refuse') throw refuse(session, decision.reason);
      if (decision.action === 'already-running') {
        // Only a record with the token proves the session is one we started and can hear from.
        if (!record?.sessionToken) {
          throw new LoopError(
            'session_token_lost',
            `tmux session \`${session.tmuxName}\` is running, but its record has no session token ` +
              '(serve stopped or failed between starting it and recording it), so its hooks and ' +
              `\`the-loop post\` would be refused; ${messages.restartHint(session)}`,
          );
        }
        if (record.status !== 'running') {
          await store.write(session.key, { ...record, status: 'running' });
        }
        return { outcome: 'already-running' };
      }
      const spec = await plan.prepare(record).catch(failedAs(`${kind}.spawn_failed`, session));
      if (decision.clearDeadPane) await driver.clearDead(session.tmuxName, owner);
      const started = await starter
        .start({
          ...spec,
          ref: session.ref,
          tmuxName: session.tmuxName,
          ...(record?.conversationId ? { conversationId: record.conversationId } : {}),
        })
        .catch(failedAs(`${kind}.spawn_failed`, session));
      const running = plan.running(record, started, now());
      try {
        await store.write(session.key, running);
      } catch (error) {
        await undoStart(session);
        return failedAs(
          `${kind}.spawn_failed`,
          session,
        )(unwritten(error, `${session.ref} was not started`));
      }
      started.sendBootPrompt();
      if (started.resumeFailed) {
        events.record(`${kind}.resume_failed`, {
          ...session.fields,
          conversationId: record?.conversationId,
        });
      }
      const outcome = started.resumed ? 'resumed' : 'started';
      events.record(`${kind}.${outcome}`, {
        ...session.fields,
        conversationId: started.conversationId,
      });
      return { outcome, record: running };
    },

    async stop(session) {
      const record = await store.read(session.key);
      const info = await driver.probe(session.tmuxName);
      if (info.state === 'unknown') throw refuse(session, 'tmux-unknown');
      if (info.state !== 'absent' && info.owner !== owner) throw refuse(session, 'foreign');
      if (info.state !== 'absent') {
        await driver
          .terminate(session.tmuxName, owner, { graceMs: options.stopGraceMs })
          .catch(failedAs(`${kind}.stop_failed`, session));
      }
      // The session is gone: its token stops working now, whatever the record write below does.
      states.forget(session.tmuxName);
      tokens.revoke(session.ref);
      const wasRunning = info.state === 'live' || record?.status === 'running';
      if (record) {
        try {
          await store.write(session.key, patched(record, { status: 'stopped', stoppedAt: now() }));
        } catch (error) {
          events.record(`${kind}.stopped`, { ...session.fields, recordWritten: false });
          throw unwritten(
            error,
            `${session.ref} is stopped, but until its record is written it may still be listed ` +
              'as running (its token no longer works)',
          );
        }
      }
      if (!wasRunning) return 'already-stopped';
      events.record(`${kind}.stopped`, session.fields);
      return 'stopped';
    },

    async markExited(session, exitStatus) {
      const exited = await lock.run(session.ref, async () => {
        const record = await store.read(session.key);
        if (record?.status !== 'running') return undefined;
        // The pane may have been started again since the listing that saw it dead.
        const info = await driver.probe(session.tmuxName);
        if (info.state !== 'dead' || info.owner !== owner) return undefined;
        const status = info.deadStatus ?? exitStatus;
        states.signal(session.tmuxName, 'exit', session.ref);
        tokens.revoke(session.ref);
        await store.write(
          session.key,
          patched(record, {
            status: 'exited',
            ...(status === undefined ? {} : { exitStatus: status }),
            exitedAt: now(),
          }),
        );
        events.record('session.exited', { ref: session.ref, exitStatus: status });
        return { status };
      });
      if (exited) options.onExited?.(session, exited.status);
      return exited;
    },

    async noticeExits(listing) {
      const running = (await store.list()).filter((entry) => entry.value.status === 'running');
      const exits = running.flatMap(({ key, value }) => {
        const session = options.sessionOf(key, value);
        const info = paneInfoFor(listing, session.tmuxName, owner);
        return info.state === 'dead' ? [{ session, status: info.deadStatus }] : [];
      });
      await Promise.all(exits.map(({ session, status }) => lifecycle.markExited(session, status)));
    },

    async hasRunning() {
      return (await store.list()).some((entry) => entry.value.status === 'running');
    },

    async sessionForToken(token) {
      if (token === '') return undefined;
      const found = (await store.list()).find(
        (entry) => entry.value.status === 'running' && entry.value.sessionToken === token,
      );
      if (!found) return undefined;
      // A record a failed write left saying `running` (a full disk at stop) does not make its
      // token valid: only a session that is ours and alive in tmux speaks.
      const session = options.sessionOf(found.key, found.value);
      const info = await driver.probe(session.tmuxName);
      return info.state === 'live' && info.owner === owner ? session : undefined;
    },
  };
  return lifecycle;
}
