import { readLive, type Live } from '../config/live-config.js';
import type { EventSink } from '../state/event-log.js';
import type { Logger } from '../log/create-logger.js';
import { planAlways, summarizeToolInput } from './describe-request.js';
import {
  newPermissionId,
  type ExpiryReason,
  type PermissionAsk,
  type PermissionChange,
  type PermissionDecider,
  type PermissionOutcome,
  type PermissionRequest,
  type PermissionVerdict,
  type PermissionView,
} from './permission-types.js';

export type DecideResult =
  | { readonly kind: 'decided'; readonly request: PermissionRequest }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'no-always'; readonly request: PermissionRequest }
  | {
      readonly kind: 'already';
      readonly request: PermissionRequest;
      readonly outcome: PermissionOutcome;
    };

export type PermissionListener = (change: PermissionChange) => void | Promise<void>;

export interface PermissionRegistry {
  /** Opens a request; `outcome` settles on the first decision or on expiry. */
  open(
    ref: string,
    ask: PermissionAsk,
  ): { request: PermissionRequest; outcome: Promise<PermissionOutcome> };
  decide(
    id: string,
    verdict: PermissionVerdict,
    decider: PermissionDecider,
    reason?: string,
  ): DecideResult;
  /** Ends an open request without a decision; false when it was not open. */
  expire(id: string, reason: ExpiryReason): boolean;
  /** Ends every open request of a session (it stopped). */
  expireRef(ref: string, reason: ExpiryReason): void;
  /** Ends every open request and waits for the listeners (serve is stopping). */
  expireAll(reason: ExpiryReason): Promise<void>;
  list(): PermissionView[];
  openFor(ref: string): PermissionRequest[];
  /** What the delivery core asks to hold deliveries (docs/design.md §13 `waiting`). */
  hasOpenRequest(ref: string): boolean;
  /** A request still open, or one settled recently. */
  find(id: string): { request: PermissionRequest; outcome?: PermissionOutcome } | undefined;
  onChange(listener: PermissionListener): () => void;
}

interface Entry {
  readonly request: PermissionRequest;
  outcome?: PermissionOutcome;
  settle(outcome: PermissionOutcome): void;
  cancelTimer(): void;
}

/** How many settled requests are remembered, so a late click hears who decided. */
const rememberSettled = 500;

/**
 * Every open permission request of this serve (docs/design.md §14), in memory: a request lives only as long
 * as the hook process waiting for it, which a restart of serve ends anyway. The first decision
 * wins; each change goes to the listeners (Slack, GitHub) and to the event log, never the input.
 */
export function createPermissionRegistry(options: {
  /** A function is read at each request, so a config reload applies to the next one. */
  readonly timeoutMs: Live<number>;
  readonly events: EventSink;
  readonly logger: Logger;
  /** `permissions.alwaysModes`: modes an "allow always" may switch to (none by default). */
  readonly alwaysModes?: Live<readonly string[]>;
  readonly now?: () => number;
  readonly newId?: () => string;
  readonly schedule?: (ms: number, run: () => void) => () => void;
}): PermissionRegistry {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => newPermissionId());
  const schedule =
    options.schedule ??
    ((ms, run) => {
      const timer = setTimeout(run, ms);
      timer.unref();
      return () => clearTimeout(timer);
    });
  const entries = new Map<string, Entry>();
  const listeners = new Set<PermissionListener>();

  const notify = (change: PermissionChange): Promise<void> =>
    Promise.allSettled([...listeners].map(async (listener) => listener(change))).then((results) => {
      for (const result of results) {
        if (result.status === 'rejected') {
          options.logger.warn(
            { event: 'permission.listener_failed', err: result.reason },
            'a permission listener failed',
          );
        }
      }
    });

  const forget = (): void => {
    const settled = [...entries.values()].filter((entry) => entry.outcome);
    for (const entry of settled.slice(0, Math.max(0, settled.length - rememberSettled))) {
      entries.delete(entry.request.id);
    }
  };

  const finish = (entry: Entry, outcome: PermissionOutcome): Promise<void> => {
    entry.outcome = outcome;
    entry.cancelTimer();
    entry.settle(outcome);
    const { id, ref, tool } = entry.request;
    if (outcome.kind === 'expired') {
      options.events.record('permission.expired', { id, ref, tool, reason: outcome.reason });
    } else {
      const event = outcome.verdict === 'deny' ? 'permission.denied' : 'permission.allowed';
      options.events.record(event, {
        id,
        ref,
        tool,
        decider: outcome.decider.name,
        surface: outcome.decider.surface,
        ...(outcome.verdict === 'allow-always' ? { always: true } : {}),
      });
    }
    forget();
    return notify({ kind: 'settled', request: entry.request, outcome });
  };

  const expireEntry = (entry: Entry, reason: ExpiryReason): Promise<void> | undefined =>
    entry.outcome
      ? undefined
      : finish(entry, { kind: 'expired', reason, at: new Date(now()).toISOString() });

  const openEntries = (): Entry[] => [...entries.values()].filter((entry) => !entry.outcome);

  return {
    open(ref, ask) {
      let id = newId();
      while (entries.has(id)) id = newId();
      const requested = now();
      const timeoutMs = readLive(options.timeoutMs);
      const always = planAlways(ask.suggestions, readLive(options.alwaysModes ?? []));
      const request: PermissionRequest = {
        id,
        ref,
        tool: ask.tool,
        summary: summarizeToolInput(ask.tool, ask.toolInput),
        requestedAt: new Date(requested).toISOString(),
        expiresAt: new Date(requested + timeoutMs).toISOString(),
        canAlways: always.apply.length > 0,
        suggestions: ask.suggestions,
        alwaysChanges: always.changes,
        alwaysApply: always.apply,
      };
      let settle: (outcome: PermissionOutcome) => void = () => undefined;
      const outcome = new Promise<PermissionOutcome>((resolve) => {
        settle = resolve;
      });
      const entry: Entry = { request, settle, cancelTimer: () => undefined };
      entries.set(id, entry);
      entry.cancelTimer = schedule(timeoutMs, () => void expireEntry(entry, 'timeout'));
      options.events.record('permission.requested', { id, ref, tool: request.tool });
      void notify({ kind: 'requested', request });
      return { request, outcome };
    },
    decide(id, verdict, decider, reason) {
      const entry = entries.get(id);
      if (!entry) return { kind: 'unknown' };
      if (entry.outcome) return { kind: 'already', request: entry.request, outcome: entry.outcome };
      if (verdict === 'allow-always' && !entry.request.canAlways) {
        return { kind: 'no-always', request: entry.request };
      }
      const trimmed = reason?.trim();
      void finish(entry, {
        kind: 'decided',
        verdict,
        decider,
        ...(trimmed ? { reason: trimmed.slice(0, 2_000) } : {}),
        at: new Date(now()).toISOString(),
      });
      return { kind: 'decided', request: entry.request };
    },
    expire(id, reason) {
      const entry = entries.get(id);
      return entry ? expireEntry(entry, reason) !== undefined : false;
    },
    expireRef(ref, reason) {
      for (const entry of openEntries().filter((open) => open.request.ref === ref)) {
        void expireEntry(entry, reason);
      }
    },
    async expireAll(reason) {
      await Promise.all(openEntries().map((entry) => expireEntry(entry, reason)));
    },
    list: () =>
      openEntries().map(({ request }) => ({
        id: request.id,
        ref: request.ref,
        tool: request.tool,
        summary: request.summary,
        requestedAt: request.requestedAt,
        expiresAt: request.expiresAt,
        canAlways: request.canAlways,
      })),
    openFor: (ref) =>
      openEntries()
        .filter((entry) => entry.request.ref === ref)
        .map((entry) => entry.request),
    hasOpenRequest: (ref) => openEntries().some((entry) => entry.request.ref === ref),
    find(id) {
      const entry = entries.get(id);
      if (!entry) return undefined;
      return entry.outcome
        ? { request: entry.request, outcome: entry.outcome }
        : { request: entry.request };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
