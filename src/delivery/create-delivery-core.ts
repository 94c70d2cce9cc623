import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { LoopError, asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { AgentStates } from './agent-states.js';
import { cancelled } from './agent-states.js';
import type { ConfirmationTracker, PendingConfirmation } from './confirmation-tracker.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import { newDeliveryTag } from './delivery-tag.js';
import { frameMessage } from './frame-message.js';
import type { Origin } from './origin.js';
import { sanitizeText } from './sanitize-text.js';
import { showsPendingInput } from './screen.js';

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

/** An outcome known before the final one (DESIGN §17): waiting its turn, or held and why. */
export interface DeliveryProgress {
  readonly deliveryId: string;
  readonly outcome: 'queued' | 'held';
  readonly reason: string;
}

export interface DeliveryRequest {
  readonly ref: string;
  readonly text: string;
  readonly origin: Origin;
  /** Origin ids worth logging (Slack event id, GitHub delivery id); never message text. */
  readonly ids?: Readonly<Record<string, string>>;
  /** Chosen by the caller when it must name the delivery before the core answers. */
  readonly deliveryId?: string;
  /**
   * Called right after the submitting Enter, before any wait for a confirmation: an origin that
   * keeps the message until it is typed (the Slack inbox) lets go of it here, so a crash while
   * waiting for the confirmation cannot type it a second time.
   */
  readonly onSubmitted?: () => Promise<void>;
  /** Hears each intermediate outcome (queued behind others or into a busy turn; held). */
  readonly onProgress?: (progress: DeliveryProgress) => void;
  /** Aborted when the sender gives up: a message not yet typed is then never typed. */
  readonly signal?: AbortSignal;
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
  readonly states: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly timing: DeliveryTiming;
  readonly ledger?: DeliveryLedger;
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

/** The `queued` reason of a message that waits only for the session's earlier messages. */
export const behindEarlier = 'behind earlier messages';

/** How long a message typed into a running turn may wait to be taken (a long turn). */
const busyTakeLimitMs = 6 * 60 * 60 * 1000;

/** What one turn in the session's queue ends with: taken already, or taken later. */
type Typed = { readonly confirmed: boolean } | { readonly later: Promise<boolean> };

export function createDeliveryCore(options: DeliveryCoreOptions): DeliveryCore {
  const { driver, states, confirmations, events, timing } = options;
  const queue = createKeyedQueue();
  const lifecycle = options.lifecycle ?? createKeyedQueue();
  const newId = options.newId ?? randomUUID;

  /** Paste, settle, Enter — under the lifecycle lock, so no start or stop comes in between. */
  const pasteAndSubmit = (target: DeliveryTarget, payload: string, tag: string) =>
    lifecycle.run(target.ref, async () => {
      await driver.paste(target.tmuxName, target.owner, payload);
      // A TUI reads an Enter that arrives with the paste as part of it; let the paste land.
      await delay(timing.submitDelayMs);
      const expected = target.confirms ? confirmations.expect(target.tmuxName, tag) : undefined;
      try {
        await driver.sendKeys(target.tmuxName, target.owner, ['Enter']);
      } catch (error) {
        expected?.cancel();
        throw error;
      }
      return expected;
    });

  /** A message typed into a running turn is taken when the turn ends (or injected into it). */
  const takenLater = async (target: DeliveryTarget, pending: PendingConfirmation) => {
    try {
      const deadline = Date.now() + busyTakeLimitMs;
      while (!pending.confirmed && Date.now() < deadline) {
        if (states.state(target.tmuxName) !== 'busy') {
          // The turn ended: Claude Code starts the next one with what waited, at once.
          return await pending.wait(timing.confirmTimeoutMs);
        }
        await Promise.race([pending.wait(busyTakeLimitMs), states.changed(target.tmuxName)]);
      }
      return pending.confirmed;
    } finally {
      pending.cancel();
    }
  };

  /** After no confirmation: Enter again only when the paste still sits in the input box. */
  const confirmOnce = async (target: DeliveryTarget, pending: PendingConfirmation, tag: string) => {
    if (await pending.wait(timing.confirmTimeoutMs)) return true;
    if (states.state(target.tmuxName) !== 'idle') return undefined;
    const screen = await driver.capture(target.tmuxName).catch(() => '');
    if (!showsPendingInput(screen, tag)) return false;
    await lifecycle.run(target.ref, () =>
      driver.sendKeys(target.tmuxName, target.owner, ['Enter']),
    );
    return pending.wait(timing.confirmTimeoutMs);
  };

  const typeInto = async (
    request: DeliveryRequest,
    text: string,
    progress: (outcome: 'queued' | 'held', reason: string) => void,
  ): Promise<Typed> => {
    if (request.signal?.aborted) throw cancelled();
    const target = await options.resolve(request.ref);
    try {
      await states.waitUntilTypeable(target.tmuxName, {
        startingTimeoutMs: timing.readyTimeoutMs,
        onHeld: (reason) => progress('held', reason),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      if (request.signal?.aborted) throw cancelled();
      const tag = newDeliveryTag(confirmations.pendingTags(target.tmuxName));
      const payload = target.agent ? frameMessage(request.origin, text, tag) : text;
      const busy = states.state(target.tmuxName) === 'busy';
      const pending = await pasteAndSubmit(target, payload, tag);
      await request.onSubmitted?.();
      if (!pending) return { confirmed: true };
      if (busy) {
        progress('queued', 'busy');
        return { later: takenLater(target, pending) };
      }
      const confirmed = await confirmOnce(target, pending, tag);
      if (confirmed !== undefined) {
        pending.cancel();
        return { confirmed };
      }
      // The agent went busy or waiting meanwhile: the prompt is in, taken when the turn allows.
      progress('queued', 'busy');
      return { later: takenLater(target, pending) };
    } catch (error) {
      throw explained(error, target);
    }
  };

  const explained = (error: unknown, target: DeliveryTarget): unknown => {
    if (!(error instanceof LoopError)) return error;
    if (error.code === 'session_not_running') {
      return new LoopError('session_not_running', target.notRunning, error.details);
    }
    if (error.code === 'session_exited') {
      const status = error.details['exitStatus'];
      const exitStatus = typeof status === 'number' ? status : undefined;
      options.onExited?.(target.ref, exitStatus);
      return new LoopError('session_exited', target.exited(exitStatus), error.details);
    }
    return error;
  };

  return {
    async deliver(request) {
      const deliveryId = request.deliveryId ?? newId();
      const started = performance.now();
      const base = {
        deliveryId,
        ref: request.ref,
        origin: request.origin.surface,
        actor: request.origin.actor,
        ...request.ids,
      };
      const ledger = (outcome: Parameters<DeliveryLedger['update']>[0]['outcome'], extra = {}) =>
        options.ledger?.update({ deliveryId, ref: request.ref, outcome, ...extra });
      const progress = (outcome: 'queued' | 'held', reason: string): void => {
        events.record(`delivery.${outcome}`, { ...base, reason });
        ledger(outcome, { reason });
        request.onProgress?.({ deliveryId, outcome, reason });
      };
      try {
        const text = checkedText(request.text);
        ledger('pending');
        // Queued by ref before anything awaits, so messages keep the order they were sent in even
        // when resolving one takes longer than another.
        if (queue.depth(request.ref) > 0) progress('queued', behindEarlier);
        const typed = await queue.run(request.ref, () => typeInto(request, text, progress));
        const confirmed = 'later' in typed ? await typed.later : typed.confirmed;
        const outcome = confirmed ? 'delivered' : 'unconfirmed';
        events.record(`delivery.${outcome}`, { ...base, ms: elapsed(started) });
        ledger(outcome);
        return { outcome, deliveryId };
      } catch (error) {
        const failure = asLoopError(error);
        events.record('delivery.failed', {
          ...base,
          code: failure.code,
          reason: failure.message,
          ms: elapsed(started),
        });
        ledger('failed', { reason: failure.message, code: failure.code });
        throw failure;
      }
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
