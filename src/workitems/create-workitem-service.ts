import type { Config } from '../config/types.js';
import type { DeliveryTarget } from '../delivery/delivery-request.js';
import type { KeyedQueue } from '../concurrency/keyed-queue.js';
import { LoopError } from '../errors.js';
import {
  parseWorkItemRef,
  workItemRef,
  workItemSlug,
  workItemTarget,
  type WorkItemRef,
} from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import {
  createSessionLifecycle,
  type LifecycleSession,
  type SessionLifecycle,
  type SessionParts,
} from '../sessions/session-lifecycle.js';
import { shownStatus } from '../sessions/session-status.js';
import { paneInfoFor } from '../tmux/pane-state-for.js';
import type { SessionListing } from '../tmux/tmux-driver.js';
import { createWorkItemResolver } from './create-workitem-resolver.js';
import { workItemBootDirective, workItemUrl } from './workitem-boot-directive.js';
import { workItemMessages } from './workitem-messages.js';
import type { WorkItemRecord, WorkItemView } from './workitem-types.js';

export interface WorkItemObserver {
  workItemStarted?(ref: string, outcome: 'started' | 'resumed'): void;
  /** The harness ended by itself; the message names the remedy. */
  workItemExited?(ref: string, message: string): void;
}

export interface WorkItemService {
  start(
    item: WorkItemRef,
    actor: string,
  ): Promise<{ outcome: 'started' | 'resumed' | 'already-running' }>;
  stop(item: WorkItemRef): Promise<{ outcome: 'stopped' | 'already-stopped' }>;
  list(): Promise<WorkItemView[]>;
  records(): Promise<WorkItemRecord[]>;
  isRunning(item: WorkItemRef): Promise<boolean>;
  resolveTarget(ref: string): Promise<DeliveryTarget>;
  refForToken(token: string): Promise<string | undefined>;
  /** Whether any session is recorded as running. */
  hasRunning(): Promise<boolean>;
  /** Records every running session whose pane this listing shows dead as exited. */
  noticeExits(listing: SessionListing): Promise<void>;
  /** Records one session as exited (a paste found its pane dead). */
  markExited(ref: string, exitStatus: number | undefined): Promise<void>;
}

/**
 * Sessions that work on one GitHub issue or pull request (docs/design.md §7.2), in the repository's
 * configured checkout. Lifecycle rules are the standing sessions' (the same decideStart): a live
 * session under the target name that is not ours is never touched.
 */
export function createWorkItemService(
  options: SessionParts & {
    readonly config: Config;
    readonly store: RecordStore<WorkItemRecord>;
    readonly observers?: Iterable<WorkItemObserver>;
    readonly clock?: () => Date;
    /** The per-ref lock shared with the delivery core (see the standing service). */
    readonly lifecycle?: KeyedQueue;
  },
): WorkItemService {
  const { config, store, driver, owner } = options;
  const messages = workItemMessages(config);
  const session = (item: WorkItemRef): LifecycleSession => ({
    ref: workItemRef(item),
    key: workItemSlug(item),
    tmuxName: workItemTarget(item),
    fields: { ref: workItemRef(item) },
  });
  const sessions: SessionLifecycle<WorkItemRecord> = createSessionLifecycle({
    kind: 'workitem',
    store,
    messages: {
      foreign: ({ tmuxName }) => messages.foreign(tmuxName),
      unrecorded: ({ tmuxName }) => messages.foreign(tmuxName),
      tmuxUnknown: () => messages.tmuxUnknown(),
      restartHint: ({ ref }) => messages.restartHint(ref),
    },
    sessionOf: (_key, record) => session(record.item),
    onExited: ({ ref }, status) => {
      const message = messages.exited(ref, status);
      for (const observer of options.observers ?? []) observer.workItemExited?.(ref, message);
    },
    driver,
    starter: options.starter,
    tokens: options.tokens,
    states: options.states,
    events: options.events,
    owner,
    stopGraceMs: options.stopGraceMs,
    clock: options.clock ?? (() => new Date()),
    ...(options.lifecycle ? { lock: options.lifecycle } : {}),
  });
  const targets = createWorkItemResolver({ config, store, owner });

  const checkout = (item: WorkItemRef): string => {
    const full = `${item.owner}/${item.repo}`.toLowerCase();
    const repo = config.github.repos.find((entry) => entry.repo.toLowerCase() === full);
    if (!repo) {
      throw new LoopError(
        'bad_request',
        `${item.owner}/${item.repo} is not in github.repos; add it with the path of its checkout`,
      );
    }
    return repo.path;
  };

  const service: WorkItemService = {
    async start(item, actor) {
      const ref = workItemRef(item);
      return sessions.run(ref, async () => {
        const cwd = checkout(item);
        const harness = config.defaults.harness;
        const { outcome } = await sessions.start(
          { ...session(item), fields: { ref, actor } },
          {
            prepare: async () => ({
              cwd,
              harnessName: harness,
              args: [],
              bootPrompt: () =>
                workItemBootDirective({
                  ref,
                  url: workItemUrl(item),
                  tmuxName: workItemTarget(item),
                  tmuxSocket: config.tmux.socket,
                  instance: config.instance.name,
                  slackThread: config.slack.enabled,
                }),
            }),
            running: (_record, started, startedAt) => ({
              version: 1,
              ref,
              item,
              instance: config.instance.name,
              status: 'running',
              harness,
              cwd,
              startedBy: actor,
              sessionToken: started.sessionToken,
              startedAt,
              ...(started.conversationId ? { conversationId: started.conversationId } : {}),
              ...(started.hooksVersion ? { hooksVersion: started.hooksVersion } : {}),
            }),
          },
        );
        if (outcome !== 'already-running') {
          for (const observer of options.observers ?? []) observer.workItemStarted?.(ref, outcome);
        }
        return { outcome };
      });
    },

    async stop(item) {
      const outcome = await sessions.run(workItemRef(item), () => sessions.stop(session(item)));
      return { outcome };
    },

    async records() {
      return (await store.list()).map((entry) => entry.value);
    },

    async list() {
      const listing = await driver.listSessions();
      return (await service.records()).map((record) => {
        const tmux = paneInfoFor(listing, workItemTarget(record.item), owner);
        const shown = shownStatus(record, tmux);
        return {
          ref: record.ref,
          ...shown,
          // As a standing session's (docs/design.md §13): null when it is not running.
          agentState:
            shown.status === 'running'
              ? (options.states.state(workItemTarget(record.item)) ?? 'idle')
              : shown.status === 'exited'
                ? 'exited'
                : null,
          tmux: tmux.state,
          instance: record.instance,
          startedBy: record.startedBy,
          startedAt: record.startedAt,
          ...(record.conversationId ? { conversationId: record.conversationId } : {}),
          ...(record.stoppedAt ? { stoppedAt: record.stoppedAt } : {}),
        };
      });
    },

    async isRunning(item) {
      const record = await store.read(workItemSlug(item));
      if (record?.status !== 'running') return false;
      const info = await driver.probe(workItemTarget(item));
      return info.state === 'live' && info.owner === owner;
    },

    resolveTarget: targets,

    hasRunning: () => sessions.hasRunning(),

    noticeExits: (listing) => sessions.noticeExits(listing),

    async markExited(ref, exitStatus) {
      const item = parseWorkItemRef(ref);
      if (item) await sessions.markExited(session(item), exitStatus);
    },

    async refForToken(token) {
      return (await sessions.sessionForToken(token))?.ref;
    },
  };
  return service;
}
