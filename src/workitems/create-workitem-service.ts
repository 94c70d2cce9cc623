import type { Config } from '../config/types.js';
import type { DeliveryTarget, EventSink } from '../delivery/create-delivery-core.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { ReadinessTracker } from '../delivery/readiness-tracker.js';
import { LoopError, asLoopError } from '../errors.js';
import type { SessionStarter } from '../harness/create-session-starter.js';
import type { SessionTokens } from '../harness/session-tokens.js';
import {
  parseWorkItemRef,
  workItemRef,
  workItemSlug,
  workItemTarget,
  type WorkItemRef,
} from '../refs.js';
import type { RecordStore } from '../state/record-store.js';
import { decideStart } from '../standing/decide-start.js';
import { describeExit, shownStatus } from '../sessions/session-status.js';
import { paneInfoFor } from '../tmux/pane-state-for.js';
import type { SessionListing, TmuxDriver } from '../tmux/tmux-driver.js';
import { workItemBootDirective, workItemUrl } from './workitem-boot-directive.js';
import type { WorkItemRecord, WorkItemView } from './workitem-types.js';

export interface WorkItemListener {
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
  /** Records every running session whose pane this listing shows dead as exited. */
  noticeExits(listing: SessionListing): Promise<void>;
  /** Records one session as exited (a paste found its pane dead). */
  markExited(ref: string, exitStatus: number | undefined): Promise<void>;
}

/**
 * Sessions that work on one GitHub issue or pull request (DESIGN §7.2), in the repository's
 * configured checkout. Lifecycle rules are the standing sessions' (the same decideStart): a live
 * session under the target name that is not ours is never touched.
 */
export function createWorkItemService(options: {
  readonly config: Config;
  readonly store: RecordStore<WorkItemRecord>;
  readonly driver: TmuxDriver;
  readonly starter: SessionStarter;
  readonly tokens: SessionTokens;
  readonly readiness: ReadinessTracker;
  readonly events: EventSink;
  readonly owner: string;
  readonly stopGraceMs: number;
  readonly listeners?: readonly WorkItemListener[];
  readonly clock?: () => Date;
  /** The per-ref lock shared with the delivery core (see the standing service). */
  readonly lifecycle?: KeyedQueue;
}): WorkItemService {
  const { config, store, driver, starter, events, owner } = options;
  const clock = options.clock ?? (() => new Date());
  const lifecycle = options.lifecycle ?? createKeyedQueue();
  const restartHint = (item: WorkItemRef): string =>
    `comment \`${config.github.keyword} start\` on ${workItemRef(item)}`;
  const exitedMessage = (item: WorkItemRef, exitStatus: number | undefined): string =>
    `the session for ${workItemRef(item)} ${describeExit(exitStatus)} — ${restartHint(item)}`;

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
      const slug = workItemSlug(item);
      const target = workItemTarget(item);
      return lifecycle.run(ref, async () => {
        const cwd = checkout(item);
        const record = await store.read(slug);
        const decision = decideStart(await driver.probe(target), owner, record !== undefined);
        if (decision.action === 'already-running') return { outcome: 'already-running' as const };
        if (decision.action === 'refuse') {
          throw new LoopError(
            decision.reason === 'tmux-unknown' ? 'tmux_unavailable' : 'foreign_session',
            `tmux session \`${target}\` exists but is not this instance's; inspect it with \`tmux attach -r -t '=${target}'\``,
          );
        }
        if (decision.clearDeadPane) await driver.clearDead(target, owner);
        const harness = config.defaults.harness;
        const result = await starter
          .start({
            ref,
            tmuxName: target,
            cwd,
            harnessName: harness,
            args: [],
            ...(record?.conversationId ? { conversationId: record.conversationId } : {}),
            bootPrompt: () =>
              workItemBootDirective({
                ref,
                url: workItemUrl(item),
                tmuxName: target,
                instance: config.instance.name,
                slackThread: config.slack.enabled,
              }),
          })
          .catch((error: unknown) => {
            events.record('workitem.spawn_failed', { ref, code: asLoopError(error).code });
            throw error;
          });
        await store.write(slug, {
          version: 1,
          ref,
          item,
          instance: config.instance.name,
          status: 'running',
          harness,
          cwd,
          startedBy: actor,
          sessionToken: result.sessionToken,
          startedAt: clock().toISOString(),
          ...(result.conversationId ? { conversationId: result.conversationId } : {}),
        });
        result.sendBootPrompt();
        if (result.resumeFailed) events.record('workitem.resume_failed', { ref });
        const outcome = result.resumed ? ('resumed' as const) : ('started' as const);
        events.record(`workitem.${outcome}`, { ref, actor });
        for (const listener of options.listeners ?? []) listener.workItemStarted?.(ref, outcome);
        return { outcome };
      });
    },

    async stop(item) {
      const ref = workItemRef(item);
      const slug = workItemSlug(item);
      const target = workItemTarget(item);
      return lifecycle.run(ref, async () => {
        const record = await store.read(slug);
        const info = await driver.probe(target);
        if (info.state === 'unknown')
          throw new LoopError('tmux_unavailable', 'tmux did not answer; try again');
        if (info.state !== 'absent')
          await driver.terminate(target, owner, { graceMs: options.stopGraceMs });
        options.readiness.forget(target);
        options.tokens.revoke(ref);
        if (record) {
          const { sessionToken: _revoked, ...kept } = record;
          await store.write(slug, { ...kept, status: 'stopped', stoppedAt: clock().toISOString() });
        }
        if (!record || record.status === 'stopped') return { outcome: 'already-stopped' as const };
        events.record('workitem.stopped', { ref });
        return { outcome: 'stopped' as const };
      });
    },

    async records() {
      return (await store.list()).map((entry) => entry.value);
    },

    async list() {
      const listing = await driver.listSessions();
      return (await service.records()).map((record) => {
        const tmux = paneInfoFor(listing, workItemTarget(record.item), owner);
        return {
          ref: record.ref,
          ...shownStatus(record, tmux),
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

    async resolveTarget(ref) {
      const item = parseWorkItemRef(ref);
      if (!item) throw new LoopError('invalid_ref', `\`${ref}\` is not a work-item ref`);
      const record = await store.read(workItemSlug(item));
      if (record?.status === 'exited') {
        throw new LoopError('session_exited', exitedMessage(item, record.exitStatus));
      }
      if (record?.status !== 'running') {
        throw new LoopError(
          'session_not_running',
          `the session for ${workItemRef(item)} is not running — comment \`${config.github.keyword} start\` on it`,
        );
      }
      const harness = config.harnesses[record.harness];
      return {
        ref: workItemRef(item),
        tmuxName: workItemTarget(item),
        owner,
        agent: harness?.agent ?? false,
        confirms: harness?.kind === 'claude',
        notRunning: `the session for ${workItemRef(item)} is not running — comment \`${config.github.keyword} start\` on it`,
        exited: (exitStatus) => exitedMessage(item, exitStatus),
      };
    },

    async noticeExits(listing) {
      const running = (await service.records()).filter((record) => record.status === 'running');
      await Promise.all(
        running.map(async (record) => {
          const info = paneInfoFor(listing, workItemTarget(record.item), owner);
          if (info.state === 'dead') await service.markExited(record.ref, info.deadStatus);
        }),
      );
    },

    async markExited(ref, exitStatus) {
      const item = parseWorkItemRef(ref);
      if (!item) return;
      const slug = workItemSlug(item);
      const target = workItemTarget(item);
      const exited = await lifecycle.run(ref, async () => {
        const record = await store.read(slug);
        if (record?.status !== 'running') return false;
        const info = await driver.probe(target);
        if (info.state !== 'dead' || info.owner !== owner) return false;
        const status = info.deadStatus ?? exitStatus;
        const { sessionToken: _revoked, ...kept } = record;
        await store.write(slug, {
          ...kept,
          status: 'exited',
          ...(status === undefined ? {} : { exitStatus: status }),
          exitedAt: clock().toISOString(),
        });
        options.readiness.forget(target);
        options.tokens.revoke(ref);
        events.record('session.exited', { ref, exitStatus: status });
        return { status };
      });
      if (!exited) return;
      const message = exitedMessage(item, exited.status);
      for (const listener of options.listeners ?? []) listener.workItemExited?.(ref, message);
    },

    async refForToken(token) {
      if (!token) return undefined;
      return (await service.records()).find((record) => record.sessionToken === token)?.ref;
    },
  };
  return service;
}
