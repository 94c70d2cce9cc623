import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { LoopError, asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import type { ConfirmationTracker } from './confirmation-tracker.js';
import { frameMessage } from './frame-message.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { Origin } from './origin.js';
import type { ReadinessTracker } from './readiness-tracker.js';
import { sanitizeText } from './sanitize-text.js';

/** The session a ref resolves to, as far as typing into it is concerned. */
export interface DeliveryTarget {
  readonly ref: string;
  readonly tmuxName: string;
  readonly owner: string;
  /** Agent harnesses get framed text; a plain shell gets the text as it is. */
  readonly agent: boolean;
  /** The harness reports each prompt it receives (Claude Code's UserPromptSubmit hook). */
  readonly confirms: boolean;
  /** What to tell the sender when tmux turns out not to have the session (e.g. its server died). */
  readonly notRunning: string;
  /** What to tell the sender when the harness has exited (its pane is dead). */
  readonly exited: (exitStatus: number | undefined) => string;
}

/** Throws a LoopError naming the remedy when the ref has no running session. */
export type ResolveTarget = (ref: string) => Promise<DeliveryTarget>;

export interface DeliveryRequest {
  readonly ref: string;
  readonly text: string;
  readonly origin: Origin;
  /** Origin ids worth logging (Slack event id, GitHub delivery id); never message text. */
  readonly ids?: Readonly<Record<string, string>>;
  /**
   * Called right after the submitting Enter, before any wait for a confirmation: an origin that
   * keeps the message until it is typed (the Slack inbox) lets go of it here, so a crash while
   * waiting for the confirmation cannot type it a second time.
   */
  readonly onSubmitted?: () => Promise<void>;
}

export interface DeliveryResult {
  readonly outcome: 'delivered' | 'unconfirmed';
  readonly deliveryId: string;
}

export interface DeliveryCore {
  deliver(request: DeliveryRequest): Promise<DeliveryResult>;
}

export interface DeliveryTiming {
  readonly readyTimeoutMs: number;
  readonly submitDelayMs: number;
  readonly confirmTimeoutMs: number;
}

export interface EventSink {
  record(event: string, fields?: Record<string, unknown>): void;
}

export interface DeliveryCoreOptions {
  readonly driver: TmuxDriver;
  readonly resolve: ResolveTarget;
  readonly readiness: ReadinessTracker;
  readonly confirmations: ConfirmationTracker;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly timing: DeliveryTiming;
  readonly newId?: () => string;
  /**
   * The per-ref lock the session lifecycle holds while it starts, stops or deletes: a paste and
   * its Enter run under it, so they never land in a session that is being replaced.
   */
  readonly lifecycle?: KeyedQueue;
  /** A paste found the session's pane dead: its owner records the exit. */
  readonly onExited?: (ref: string, exitStatus: number | undefined) => void;
}

/** Large enough for a pasted log or file, small enough that one message cannot wedge a pane. */
export const maxMessageBytes = 512 * 1024;

export function createDeliveryCore(options: DeliveryCoreOptions): DeliveryCore {
  const { driver, readiness, confirmations, events, timing } = options;
  const queue = createKeyedQueue();
  const lifecycle = options.lifecycle ?? createKeyedQueue();
  const newId = options.newId ?? randomUUID;

  const typeInto = async (
    target: DeliveryTarget,
    text: string,
    onSubmitted: (() => Promise<void>) | undefined,
  ): Promise<boolean> => {
    await readiness.waitUntilReady(target.tmuxName, timing.readyTimeoutMs);
    const pending = await lifecycle.run(target.ref, async () => {
      await driver.paste(target.tmuxName, target.owner, text);
      // A TUI can read an Enter that arrives with the paste as part of it; let the paste land.
      await delay(timing.submitDelayMs);
      const expected = target.confirms ? confirmations.expect(target.tmuxName, text) : undefined;
      try {
        await driver.sendKeys(target.tmuxName, target.owner, ['Enter']);
      } catch (error) {
        expected?.cancel();
        throw error;
      }
      return expected;
    });
    try {
      await onSubmitted?.();
      if (!pending) return true;
      if (await pending.wait(timing.confirmTimeoutMs)) return true;
      await lifecycle.run(target.ref, () =>
        driver.sendKeys(target.tmuxName, target.owner, ['Enter']),
      );
      return await pending.wait(timing.confirmTimeoutMs);
    } finally {
      pending?.cancel();
    }
  };

  const attempt = async (request: DeliveryRequest, text: string): Promise<boolean> => {
    const target = await options.resolve(request.ref);
    const payload = target.agent ? frameMessage(request.origin, text) : text;
    try {
      return await typeInto(target, payload, request.onSubmitted);
    } catch (error) {
      if (error instanceof LoopError && error.code === 'session_not_running') {
        throw new LoopError('session_not_running', target.notRunning, error.details);
      }
      if (error instanceof LoopError && error.code === 'session_exited') {
        const status = error.details['exitStatus'];
        const exitStatus = typeof status === 'number' ? status : undefined;
        options.onExited?.(target.ref, exitStatus);
        throw new LoopError('session_exited', target.exited(exitStatus), error.details);
      }
      throw error;
    }
  };

  return {
    deliver(request) {
      const deliveryId = newId();
      const started = performance.now();
      const base = {
        deliveryId,
        ref: request.ref,
        origin: request.origin.surface,
        actor: request.origin.actor,
        ...request.ids,
      };
      const fail = (error: unknown): never => {
        const failure = asLoopError(error);
        events.record('delivery.failed', {
          ...base,
          code: failure.code,
          reason: failure.message,
          ms: elapsed(started),
        });
        throw failure;
      };
      let text: string;
      try {
        text = checkedText(request.text);
      } catch (error) {
        return Promise.reject(error).catch(fail);
      }
      // Queued by ref before anything awaits, so messages keep the order they were sent in even
      // when resolving one takes longer than another.
      return queue
        .run(request.ref, () => attempt(request, text))
        .then((confirmed) => {
          const outcome = confirmed ? 'delivered' : 'unconfirmed';
          events.record(`delivery.${outcome}`, { ...base, ms: elapsed(started) });
          return { outcome, deliveryId } as const;
        }, fail);
    },
  };
}

function checkedText(raw: string): string {
  const text = sanitizeText(raw);
  if (text.trim() === '') {
    throw new LoopError('empty_message', 'the message is empty; send some text');
  }
  if (Buffer.byteLength(text) > maxMessageBytes) {
    throw new LoopError(
      'payload_too_large',
      `the message is over ${maxMessageBytes / 1024} KB; send a shorter one or a file path`,
    );
  }
  return text;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
