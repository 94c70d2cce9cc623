import type { Config } from '../config/types.js';
import type { DeliveryCore } from '../delivery/delivery-request.js';
import { firstAnswer, type SayAnswer } from '../delivery/first-answer.js';
import type { Origin } from '../delivery/frame-message.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import { LoopError, asLoopError } from '../errors.js';
import { standingRef, standingTarget } from '../refs.js';
import {
  createSessionLifecycle,
  type LifecycleSession,
  type SessionLifecycle,
  type SessionParts,
  type StopOutcome,
} from '../sessions/session-lifecycle.js';
import type { RecordStore } from '../state/record-store.js';
import { paneInfoFor } from '../tmux/pane-state-for.js';
import type { SessionListing } from '../tmux/tmux-driver.js';
import { checkStartable, standingStartPlan } from './start-plan.js';
import {
  resolveAllStanding,
  resolveOneStanding,
  shownSource,
  type ResolvedStanding,
} from './resolve-definitions.js';
import { standingMessages } from './standing-messages.js';
import {
  type StandingSlackThread,
  type StandingDefinition,
  type StandingRecord,
  type StandingView,
  type StartOutcome,
  toStandingView,
} from './standing-types.js';
import { validateCreate, type CreateInput } from './validate-create.js';

export interface StandingServiceOptions extends SessionParts {
  readonly config: Config;
  readonly store: RecordStore<StandingRecord>;
  readonly delivery: DeliveryCore;
  readonly clock?: () => Date;
  /** Read at each event, so a surface built after the service can still register. */
  readonly observers?: Iterable<StandingObserver>;
  /**
   * One lock per ref, shared with the delivery core: a start, stop, restart or delete never
   * interleaves with a paste and its Enter.
   */
  readonly lifecycle?: KeyedQueue;
}

export type { StopOutcome };

/**
 * A say answers within this even while its message waits (as `queued`), far inside the CLI's own
 * time limit: a sender who gave up is never the one whose message is typed later.
 */
export const sayAnswerWithinMs = 20_000;

/** Surfaces that follow a session's life (the Slack announcer) register one of these. */
export interface StandingObserver {
  started?(name: string, outcome: 'started' | 'resumed', definition: StandingDefinition): void;
  deleted?(name: string): void;
  /** The harness ended by itself; the message names the remedy. */
  exited?(name: string, message: string): void;
}

export interface BulkResult {
  readonly name: string;
  readonly outcome?: StartOutcome | StopOutcome;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface StandingService {
  list(): Promise<StandingView[]>;
  get(name: string): Promise<StandingView>;
  start(name: string): Promise<{ outcome: StartOutcome; session: StandingView }>;
  stop(name: string): Promise<{ outcome: StopOutcome; session: StandingView }>;
  restart(name: string): Promise<{ outcome: StartOutcome; session: StandingView }>;
  say(
    name: string,
    text: string,
    actor: string,
    /** `origin` defaults to the CLI's, `[cli · <actor>]`. */
    options?: { readonly signal?: AbortSignal; readonly origin?: Origin },
  ): Promise<SayAnswer>;
  create(input: CreateInput): Promise<{ session: StandingView; outcome?: StartOutcome }>;
  delete(name: string): Promise<void>;
  startAll(): Promise<BulkResult[]>;
  stopAll(): Promise<BulkResult[]>;
  /** The session a `THE_LOOP_SESSION_TOKEN` belongs to. */
  nameForToken(token: string): Promise<string | undefined>;
  /** Sends the harness's interrupt key (Escape for Claude Code, C-c for a shell). */
  interrupt(name: string): Promise<void>;
  /** Remembers the Slack thread a session was announced in. */
  recordSlackThread(name: string, thread: StandingSlackThread): Promise<void>;
  /** Whether any session is recorded as running. */
  hasRunning(): Promise<boolean>;
  /** Records every running session whose pane this listing shows dead as exited. */
  noticeExits(listing: SessionListing): Promise<void>;
  /** Records one session as exited (a paste found its pane dead). */
  markExited(name: string, exitStatus: number | undefined): Promise<void>;
}

export function createStandingService(options: StandingServiceOptions): StandingService {
  const { config, store, driver, starter, delivery, states, events, owner } = options;
  const clock = options.clock ?? (() => new Date());
  const locks = options.lifecycle ?? createKeyedQueue();

  const resolveAll = (): Promise<ResolvedStanding[]> => resolveAllStanding(config, store);
  const resolveOne = (name: string): Promise<ResolvedStanding> =>
    resolveOneStanding(config, store, name);

  const view = async (resolved: ResolvedStanding): Promise<StandingView> => {
    const record = await store.read(resolved.definition.name);
    const info = await driver.probe(standingTarget(resolved.definition.name));
    return toStandingView(
      resolved.definition,
      shownSource(resolved),
      record,
      info.owner === owner || info.state === 'absent' ? info : { state: 'unknown' },
      config.slack.channel,
      states.state(standingTarget(resolved.definition.name)),
    );
  };

  const baseRecord = (resolved: ResolvedStanding): StandingRecord =>
    resolved.record ?? {
      version: 1,
      name: resolved.definition.name,
      source: resolved.source,
      definition: resolved.definition,
      status: 'stopped',
      createdAt: clock().toISOString(),
    };

  const session = (name: string): LifecycleSession => ({
    ref: standingRef(name),
    key: name,
    tmuxName: standingTarget(name),
    fields: { name },
  });
  const sessions: SessionLifecycle<StandingRecord> = createSessionLifecycle({
    kind: 'standing',
    store,
    messages: {
      foreign: ({ key }) => standingMessages.foreign(key, config.tmux.socket),
      unrecorded: ({ key }) => standingMessages.unrecorded(key, config.tmux.socket),
      tmuxUnknown: ({ key }) => standingMessages.tmuxUnknown(key),
      restartHint: ({ key }) => `restart it: \`the-loop standing restart ${key}\``,
    },
    sessionOf: (key) => session(key),
    onExited: ({ key: name }, status) => {
      const message = standingMessages.exited(name, status);
      for (const observer of options.observers ?? []) observer.exited?.(name, message);
    },
    driver,
    starter,
    tokens: options.tokens,
    states,
    events,
    owner,
    stopGraceMs: options.stopGraceMs,
    clock,
    lock: locks,
  });
  const lifecycle = {
    run: <T>(name: string, task: () => Promise<T>): Promise<T> =>
      sessions.run(standingRef(name), task),
  };

  const startLocked = async (resolved: ResolvedStanding): Promise<StartOutcome> => {
    const { name } = resolved.definition;
    if (resolved.undeclared) {
      throw new LoopError('session_undeclared', standingMessages.undeclared(name));
    }
    const { outcome } = await sessions.start(
      session(name),
      standingStartPlan(resolved, config, () => baseRecord(resolved)),
    );
    if (outcome !== 'already-running') {
      for (const observer of options.observers ?? [])
        observer.started?.(name, outcome, resolved.definition);
    }
    return outcome;
  };

  const stopLocked = (name: string): Promise<StopOutcome> => sessions.stop(session(name));

  const bulk = async (
    names: readonly string[],
    verb: (name: string) => Promise<StartOutcome | StopOutcome>,
  ): Promise<BulkResult[]> =>
    Promise.all(
      names.map(async (name) => {
        try {
          return { name, outcome: await verb(name) };
        } catch (error) {
          const failure = asLoopError(error);
          return { name, error: { code: failure.code, message: failure.message } };
        }
      }),
    );

  const forgetUndeclared = async (name: string): Promise<void> => {
    const forgotten = await lifecycle.run(name, async () => {
      const current = await resolveOne(name);
      if (!current.undeclared || current.record?.status === 'running') return false;
      await store.remove(name);
      events.record('standing.deleted', { name, reason: 'undeclared' });
      return true;
    });
    if (forgotten) for (const observer of options.observers ?? []) observer.deleted?.(name);
  };

  const service: StandingService = {
    async list() {
      const [all, listing] = await Promise.all([resolveAll(), driver.listSessions()]);
      return all.map((resolved) => {
        const info = paneInfoFor(listing, standingTarget(resolved.definition.name), owner);
        return toStandingView(
          resolved.definition,
          shownSource(resolved),
          resolved.record,
          info,
          config.slack.channel,
          states.state(standingTarget(resolved.definition.name)),
        );
      });
    },

    async get(name) {
      return view(await resolveOne(name));
    },

    async start(name) {
      const resolved = await resolveOne(name);
      const outcome = await lifecycle.run(name, async () => startLocked(await resolveOne(name)));
      return { outcome, session: await view(resolved) };
    },

    async stop(name) {
      const resolved = await resolveOne(name);
      const outcome = await lifecycle.run(name, () => stopLocked(name));
      const session = await view(resolved);
      // Stopped, an undeclared session has nothing left to be: it is forgotten, as a delete does.
      if (resolved.undeclared) await forgetUndeclared(name);
      return { outcome, session };
    },

    async restart(name) {
      const resolved = await resolveOne(name);
      const outcome = await lifecycle.run(name, async () => {
        const current = await resolveOne(name);
        if (current.undeclared) {
          throw new LoopError('session_undeclared', standingMessages.undeclared(name));
        }
        await checkStartable(current.definition, current.source, config);
        await stopLocked(name);
        return startLocked(await resolveOne(name));
      });
      return { outcome, session: await view(resolved) };
    },

    async say(name, text, actor, sayOptions = {}) {
      await resolveOne(name);
      const result = await firstAnswer(
        delivery,
        {
          ref: standingRef(name),
          text,
          origin: sayOptions.origin ?? { surface: 'cli', actor },
          ...(sayOptions.signal ? { signal: sayOptions.signal } : {}),
        },
        { answerWithinMs: sayAnswerWithinMs },
      );
      events.record('standing.said', {
        name,
        deliveryId: result.deliveryId,
        outcome: result.outcome,
      });
      return result;
    },

    async create(input) {
      const checked = await validateCreate(input, config);
      const { name } = checked.definition;
      return lifecycle.run(name, async () => {
        const declared = config.standing.sessions.some((session) => session.name === name);
        if (declared || (await store.read(name))) {
          throw new LoopError('name_taken', standingMessages.nameTaken(name, declared));
        }
        const info = await driver.probe(standingTarget(name));
        if (info.state === 'unknown')
          throw new LoopError('tmux_unavailable', standingMessages.tmuxUnknown(name));
        if (info.state !== 'absent')
          throw new LoopError('name_taken', standingMessages.foreign(name, config.tmux.socket));
        const record: StandingRecord = {
          version: 1,
          name,
          source: 'created',
          definition: checked.definition,
          status: 'stopped',
          createdAt: clock().toISOString(),
        };
        await store.write(name, record);
        events.record('standing.created', { name, harness: checked.definition.harness });
        const resolved: ResolvedStanding = {
          definition: record.definition,
          source: 'created',
          record,
        };
        if (!checked.start) return { session: await view(resolved) };
        try {
          const outcome = await startLocked(resolved);
          return { session: await view(resolved), outcome };
        } catch (error) {
          // A created session that cannot start is not left behind half-made. If even the removal
          // fails (a read-only folder), the start's own failure is still the one reported.
          const removed = await store.remove(name).catch((removal: unknown) => {
            events.record('standing.delete_failed', { name, code: asLoopError(removal).code });
            return false;
          });
          if (removed) events.record('standing.deleted', { name, reason: 'start_failed' });
          throw error;
        }
      });
    },

    async delete(name) {
      const resolved = await resolveOne(name);
      if (resolved.configKey) {
        throw new LoopError(
          'declared_session',
          standingMessages.declared(name, resolved.configKey),
        );
      }
      await lifecycle.run(name, async () => {
        // Another delete may have finished while this one waited for the lock: only one deletes.
        if (!(await store.read(name)))
          throw new LoopError('session_unknown', standingMessages.unknown(name));
        await stopLocked(name);
        await store.remove(name);
        events.record('standing.deleted', { name });
      });
      for (const observer of options.observers ?? []) observer.deleted?.(name);
    },

    async startAll() {
      const all = await resolveAll();
      const names = all
        .filter((entry) => entry.definition.autoStart && !entry.undeclared)
        .map((entry) => entry.definition.name);
      return bulk(names, async (name) => (await service.start(name)).outcome);
    },

    async stopAll() {
      const names = (await store.list()).map((entry) => entry.key);
      return bulk(names, async (name) => (await service.stop(name)).outcome);
    },

    async interrupt(name) {
      const resolved = await resolveOne(name);
      const record = await store.read(name);
      if (record?.status !== 'running')
        throw new LoopError('session_not_running', standingMessages.stopped(name));
      const harness = config.harnesses[resolved.definition.harness];
      await driver.sendKeys(standingTarget(name), owner, [harness?.interruptKey ?? 'C-c']);
      // The turn is over: Claude Code sends no Stop for an interrupted one.
      states.signal(standingTarget(name), 'stop', standingRef(name));
    },

    async recordSlackThread(name, thread) {
      await lifecycle.run(name, async () => {
        const record = await store.read(name);
        if (record) await store.write(name, { ...record, slack: thread });
      });
    },

    hasRunning: () => sessions.hasRunning(),

    noticeExits: (listing) => sessions.noticeExits(listing),

    async markExited(name, exitStatus) {
      await sessions.markExited(session(name), exitStatus);
    },

    async nameForToken(token) {
      return (await sessions.sessionForToken(token))?.key;
    },
  };
  return service;
}
