import type { Config } from '../config/types.js';
import type { DeliveryCore, EventSink } from '../delivery/create-delivery-core.js';
import { firstAnswer, type SayAnswer } from '../delivery/first-answer.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { AgentStates } from '../delivery/agent-states.js';
import { LoopError, asLoopError } from '../errors.js';
import { bootPrompt, standingBootDirective } from '../harness/boot-directive.js';
import type { SessionStarter } from '../harness/create-session-starter.js';
import type { SessionTokens } from '../harness/session-tokens.js';
import { isValidName, nameProblem, standingRef, standingTarget } from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import { paneInfoFor } from '../tmux/pane-state-for.js';
import type { SessionListing, TmuxDriver } from '../tmux/tmux-driver.js';
import { checkStartable } from './check-startable.js';
import { decideStart } from './decide-start.js';
import { resolveDefinitions, type ResolvedStanding } from './resolve-definitions.js';
import { standingMessages } from './standing-messages.js';
import type {
  SlackBinding,
  StandingDefinition,
  StandingRecord,
  StandingView,
  StartOutcome,
} from './standing-types.js';
import { toStandingView } from './to-standing-view.js';
import { validateCreate, type CreateInput } from './validate-create.js';

export interface StandingServiceOptions {
  readonly config: Config;
  readonly store: RecordStore<StandingRecord>;
  readonly driver: TmuxDriver;
  readonly starter: SessionStarter;
  readonly tokens: SessionTokens;
  readonly delivery: DeliveryCore;
  readonly readiness: AgentStates;
  readonly events: EventSink;
  /** The instance id written to `@the-loop-owner`. */
  readonly owner: string;
  readonly stopGraceMs: number;
  readonly clock?: () => Date;
  /** Read at each event, so a surface built after the service can still register. */
  readonly listeners?: readonly StandingListener[];
  /**
   * One lock per ref, shared with the delivery core: a start, stop, restart or delete never
   * interleaves with a paste and its Enter.
   */
  readonly lifecycle?: KeyedQueue;
}

export type StopOutcome = 'stopped' | 'already-stopped';

/**
 * A say answers within this even while its message waits (as `queued`), far inside the CLI's own
 * time limit: a sender who gave up is never the one whose message is typed later.
 */
export const sayAnswerWithinMs = 20_000;

/** Surfaces that follow a session's life (the Slack announcer) register one of these. */
export interface StandingListener {
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
    options?: { readonly signal?: AbortSignal },
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
  recordSlackThread(name: string, binding: SlackBinding): Promise<void>;
  /** Records every running session whose pane this listing shows dead as exited. */
  noticeExits(listing: SessionListing): Promise<void>;
  /** Records one session as exited (a paste found its pane dead). */
  markExited(name: string, exitStatus: number | undefined): Promise<void>;
}

export function createStandingService(options: StandingServiceOptions): StandingService {
  const { config, store, driver, starter, delivery, readiness, events, owner } = options;
  const clock = options.clock ?? (() => new Date());
  const locks = options.lifecycle ?? createKeyedQueue();
  const lifecycle: KeyedQueue = {
    run: (name, task) => locks.run(standingRef(name), task),
    depth: (name) => locks.depth(standingRef(name)),
  };

  const checkedName = (name: string): string => {
    if (!isValidName(name)) throw new LoopError('invalid_name', nameProblem(name));
    return name;
  };

  const resolveAll = async (): Promise<ResolvedStanding[]> =>
    resolveDefinitions(
      config.standing.sessions,
      (await store.list()).map((entry) => entry.value),
    );

  const resolveOne = async (name: string): Promise<ResolvedStanding> => {
    const record = await store.read(checkedName(name));
    const [found] = resolveDefinitions(
      config.standing.sessions.filter((session) => session.name === name),
      record ? [record] : [],
    );
    if (!found) throw new LoopError('session_unknown', standingMessages.unknown(name));
    return found;
  };

  const view = async (resolved: ResolvedStanding): Promise<StandingView> => {
    const record = await store.read(resolved.definition.name);
    const info = await driver.probe(standingTarget(resolved.definition.name));
    return toStandingView(
      resolved.definition,
      resolved.source,
      record,
      info.owner === owner || info.state === 'absent' ? info : { state: 'unknown' },
      config.slack.channel,
      readiness.state(standingTarget(resolved.definition.name)),
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

  /** Records a failed step as its event (with the reason people see) and passes the error on. */
  const failedAs =
    (event: string, name: string) =>
    (error: unknown): never => {
      const failure = asLoopError(error);
      events.record(event, { name, code: failure.code, reason: failure.message });
      throw failure;
    };

  const startLocked = async (resolved: ResolvedStanding): Promise<StartOutcome> => {
    const { name } = resolved.definition;
    const target = standingTarget(name);
    const record = await store.read(name);
    const decision = decideStart(await driver.probe(target), owner, record !== undefined);
    if (decision.action === 'already-running') {
      if (record && record.status !== 'running')
        await store.write(name, { ...record, status: 'running' });
      return 'already-running';
    }
    if (decision.action === 'refuse') {
      const message =
        decision.reason === 'foreign'
          ? standingMessages.foreign(name)
          : decision.reason === 'unrecorded'
            ? standingMessages.unrecorded(name)
            : standingMessages.tmuxUnknown(name);
      throw new LoopError(
        decision.reason === 'tmux-unknown' ? 'tmux_unavailable' : 'foreign_session',
        message,
      );
    }
    const { brief } = await checkStartable(resolved.definition, config).catch(
      failedAs('standing.spawn_failed', name),
    );
    if (decision.clearDeadPane) await driver.clearDead(target, owner);
    const previous = record ?? baseRecord(resolved);
    const result = await starter
      .start({
        ref: standingRef(name),
        tmuxName: target,
        cwd: resolved.definition.cwd,
        harnessName: resolved.definition.harness,
        args: resolved.definition.args,
        ...(previous.conversationId ? { conversationId: previous.conversationId } : {}),
        bootPrompt: () =>
          bootPrompt(
            standingBootDirective({
              name,
              tmuxName: target,
              instance: config.instance.name,
              slackThread: resolved.definition.slack !== false && config.slack.enabled,
            }),
            brief,
          ),
      })
      .catch(failedAs('standing.spawn_failed', name));
    const { conversationId: _dropped, exitStatus: _old, exitedAt: _gone, ...rest } = previous;
    await store.write(name, {
      ...rest,
      definition: resolved.definition,
      status: 'running',
      sessionToken: result.sessionToken,
      startedAt: clock().toISOString(),
      ...(result.conversationId ? { conversationId: result.conversationId } : {}),
    });
    result.sendBootPrompt();
    if (result.resumeFailed) {
      events.record('standing.resume_failed', { name, conversationId: previous.conversationId });
    }
    const outcome = result.resumed ? 'resumed' : 'started';
    events.record(`standing.${outcome}`, { name, conversationId: result.conversationId });
    for (const listener of options.listeners ?? [])
      listener.started?.(name, outcome, resolved.definition);
    return outcome;
  };

  const stopLocked = async (name: string): Promise<StopOutcome> => {
    const target = standingTarget(name);
    const record = await store.read(name);
    const info = await driver.probe(target);
    if (info.state === 'unknown')
      throw new LoopError('tmux_unavailable', standingMessages.tmuxUnknown(name));
    if (info.state !== 'absent' && info.owner !== owner) {
      throw new LoopError('foreign_session', standingMessages.foreign(name));
    }
    if (info.state !== 'absent') {
      await driver
        .terminate(target, owner, { graceMs: options.stopGraceMs })
        .catch(failedAs('standing.stop_failed', name));
    }
    readiness.forget(target);
    options.tokens.revoke(standingRef(name));
    const wasRunning = info.state === 'live' || record?.status === 'running';
    if (record) {
      const { sessionToken: _revoked, ...kept } = record;
      await store.write(name, { ...kept, status: 'stopped', stoppedAt: clock().toISOString() });
    }
    if (!wasRunning) return 'already-stopped';
    events.record('standing.stopped', { name });
    return 'stopped';
  };

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

  const service: StandingService = {
    async list() {
      const [all, listing] = await Promise.all([resolveAll(), driver.listSessions()]);
      return all.map((resolved) => {
        const info = paneInfoFor(listing, standingTarget(resolved.definition.name), owner);
        return toStandingView(
          resolved.definition,
          resolved.source,
          resolved.record,
          info,
          config.slack.channel,
          readiness.state(standingTarget(resolved.definition.name)),
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
      return { outcome, session: await view(resolved) };
    },

    async restart(name) {
      const resolved = await resolveOne(name);
      const outcome = await lifecycle.run(name, async () => {
        const current = await resolveOne(name);
        await checkStartable(current.definition, config);
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
          origin: { surface: 'cli', actor },
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
          throw new LoopError('name_taken', standingMessages.foreign(name));
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
          // A created session that cannot start is not left behind half-made.
          await store.remove(name);
          events.record('standing.deleted', { name, reason: 'start_failed' });
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
        await stopLocked(name);
        await store.remove(name);
        events.record('standing.deleted', { name });
      });
      for (const listener of options.listeners ?? []) listener.deleted?.(name);
    },

    async startAll() {
      const all = await resolveAll();
      const names = all
        .filter((entry) => entry.definition.autoStart)
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
    },

    async recordSlackThread(name, binding) {
      await lifecycle.run(name, async () => {
        const record = await store.read(name);
        if (record) await store.write(name, { ...record, slack: binding });
      });
    },

    async noticeExits(listing) {
      const running = (await store.list()).filter((entry) => entry.value.status === 'running');
      await Promise.all(
        running.map(async ({ key }) => {
          const info = paneInfoFor(listing, standingTarget(key), owner);
          if (info.state === 'dead') await service.markExited(key, info.deadStatus);
        }),
      );
    },

    async markExited(name, exitStatus) {
      const exited = await lifecycle.run(name, async () => {
        const record = await store.read(name);
        if (record?.status !== 'running') return false;
        // The pane may have been started again since the listing that saw it dead.
        const info = await driver.probe(standingTarget(name));
        if (info.state !== 'dead' || info.owner !== owner) return false;
        const status = info.deadStatus ?? exitStatus;
        const { sessionToken: _revoked, ...kept } = record;
        await store.write(name, {
          ...kept,
          status: 'exited',
          ...(status === undefined ? {} : { exitStatus: status }),
          exitedAt: clock().toISOString(),
        });
        readiness.forget(standingTarget(name));
        options.tokens.revoke(standingRef(name));
        events.record('session.exited', { ref: standingRef(name), exitStatus: status });
        return { status };
      });
      if (!exited) return;
      const message = standingMessages.exited(name, exited.status);
      for (const listener of options.listeners ?? []) listener.exited?.(name, message);
    },

    async nameForToken(token) {
      if (token === '') return undefined;
      const records = await store.list();
      return records.find((entry) => entry.value.sessionToken === token)?.key;
    },
  };
  return service;
}
