import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { LoopError, asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { EventSink } from '../state/event-log.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { createKeyedQueue, type KeyedQueue } from '../concurrency/keyed-queue.js';
import type { AgentStates } from './agent-states.js';
import { cancelled } from './agent-states.js';
import type { ConfirmationTracker, PendingConfirmation } from './confirmation-tracker.js';
import type { DeliveryStatuses } from './delivery-statuses.js';
import { newDeliveryTag } from './delivery-tag.js';
import { checkedText, frameMessage } from './frame-message.js';
import { boxHoldsPaste } from '../harness/claude-screen.js';
import type {
  DeliveryCore,
  DeliveryRequest,
  DeliveryTarget,
  ResolveTarget,
} from './delivery-request.js';
import { createInputBox, type ScreenTarget } from './input-box.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';
import type { ScreenBlocks } from './screen-blocks.js';
import { decideResume, type SubmitMark } from './submit-mark.js';
import { createConfirmationWait, type Typed } from './confirmation-wait.js';

export interface DeliveryTiming {
  readonly readyTimeoutMs: number;
  /** The pause before Enter for harnesses whose screen is not read. */
  readonly submitDelayMs: number;
  readonly confirmTimeoutMs: number;
  readonly draftWaitMs?: number;
  /** How long a screen may show neither input box nor known dialog before it blocks (§13). */
  readonly unknownScreenMs?: number;
}

export interface DeliveryCoreOptions {
  readonly driver: TmuxDriver;
  readonly resolve: ResolveTarget;
  readonly states: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly events: EventSink;
  readonly logger: Logger;
  readonly timing: DeliveryTiming;
  readonly statuses?: DeliveryStatuses;
  readonly newId?: () => string;
  /**
   * The per-ref lock the session lifecycle holds while it starts, stops or deletes: a paste and
   * its Enter run under it, so they never land in a session that is being replaced.
   */
  readonly lifecycle?: KeyedQueue;
  /** A paste found the session's pane dead: its owner records the exit. */
  readonly onExited?: (ref: string, exitStatus: number | undefined) => void;
  /** `tmux.socket` ("" or unset = the default server), for the attach line in refusals (§17). */
  readonly tmuxSocket?: string;
  /** A screen the-loop cannot read blocks the session (§13); without it the delivery fails. */
  readonly screenBlocks?: ScreenBlocks;
}

/** The `queued` reason of a message that waits only for the session's earlier messages. */
export const behindEarlier = 'behind earlier messages';

export function createDeliveryCore(options: DeliveryCoreOptions): DeliveryCore {
  const { driver, states, confirmations, events, timing } = options;
  const queue = createKeyedQueue();
  const lifecycle = options.lifecycle ?? createKeyedQueue();
  const newId = options.newId ?? randomUUID;

  const inputBox = createInputBox({
    driver,
    draftWaitMs: timing.draftWaitMs ?? 30_000,
    noBoxTimeoutMs: timing.unknownScreenMs ?? timing.readyTimeoutMs,
    ...(options.screenBlocks
      ? {
          unreadable: (target: ScreenTarget, capture: string) =>
            options.screenBlocks?.unreadable(
              { tmuxName: target.tmuxName, ...(target.ref ? { ref: target.ref } : {}) },
              capture,
              target.screen,
            ),
        }
      : {}),
    ...(options.tmuxSocket ? { tmuxSocket: options.tmuxSocket } : {}),
    press: async (target, key) => {
      await lifecycle.run(refOf.get(target.tmuxName) ?? target.tmuxName, () =>
        driver.sendKeys(target.tmuxName, target.owner, [key]),
      );
      // An Escape ends a running turn, and Claude Code sends no Stop for it.
      if (key === 'Escape') states.signal(target.tmuxName, 'stop');
    },
  });
  const refOf = new Map<string, string>();
  const confirmation = createConfirmationWait({
    states,
    confirmTimeoutMs: timing.confirmTimeoutMs,
    look: (target) => inputBox.look(screenTarget(target)),
    enterAgain: (target) =>
      lifecycle.run(target.ref, () => driver.sendKeys(target.tmuxName, target.owner, ['Enter'])),
  });

  /**
   * Paste, then Enter, each under the lifecycle lock so no start or stop comes in between. Where
   * the screen is read, Enter goes only onto our own paste (docs/design.md §17): the screen is watched
   * between the two, and looked at once more under the lock right before the key. Elsewhere
   * Enter follows a settle. Resolves `swallowed` when a dialog took the paste (nothing was
   * submitted; the caller goes round again).
   */
  const pasteAndSubmit = async (
    target: DeliveryTarget,
    payload: string,
    tag: string,
    held: (reason: string) => void,
    request: DeliveryRequest,
  ): Promise<PendingConfirmation | undefined | 'swallowed'> => {
    const { signal } = request;
    await lifecycle.run(target.ref, () => driver.paste(target.tmuxName, target.owner, payload));
    if (target.screen) {
      const seen = await inputBox.awaitPaste(
        screenTarget(target),
        tag,
        timing.readyTimeoutMs,
        held,
        signal,
      );
      if (seen === 'swallowed') return 'swallowed';
    } else {
      // A TUI may read an Enter that arrives with the paste as part of it; let the paste land.
      // No settle asked for is none: a timer of 0 still waits a millisecond.
      if (timing.submitDelayMs > 0) await delay(timing.submitDelayMs);
    }
    return lifecycle.run(target.ref, async () => {
      if (target.screen) {
        const screen = await inputBox.look(screenTarget(target));
        if (!boxHoldsPaste(screen, tag)) return 'swallowed';
      }
      // Only a screen can be looked at after a restart: elsewhere a mark would tell nothing.
      if (request.onSubmitting && target.screen) {
        const { panePid } = await driver.probe(target.tmuxName);
        await request.onSubmitting({
          tag,
          tmuxName: target.tmuxName,
          ...(panePid === undefined ? {} : { panePid }),
        });
      }
      return pressEnter(target, tag);
    });
  };

  /** The submitting Enter, with the confirmation it is to get (when its harness confirms). */
  const pressEnter = async (target: DeliveryTarget, tag: string) => {
    const expected = target.confirms ? confirmations.expect(target.tmuxName, tag) : undefined;
    try {
      await driver.sendKeys(target.tmuxName, target.owner, ['Enter']);
    } catch (error) {
      expected?.cancel();
      throw error;
    }
    return expected;
  };

  /**
   * A message whose mark a crashed process left (submit-mark.ts): Enter onto its paste when that
   * still sits in the box, nothing when the same pane shows an empty box (it went in), and
   * `undefined` — type it as if new — when that cannot be told.
   */
  const resumed = async (
    target: DeliveryTarget,
    mark: SubmitMark,
  ): Promise<
    { pending: PendingConfirmation | undefined; tag: string } | 'submitted' | undefined
  > => {
    if (!target.screen) return undefined;
    const { panePid } = await driver.probe(target.tmuxName);
    return lifecycle.run(target.ref, async () => {
      const screen = await inputBox.look(screenTarget(target));
      const step = decideResume(mark, {
        tmuxName: target.tmuxName,
        ...(panePid === undefined ? {} : { panePid }),
        screen,
      });
      options.logger.info(
        { event: 'delivery.resumed', ref: target.ref, tag: mark.tag, step },
        'a message marked before a restart',
      );
      if (step === 'submitted') return 'submitted';
      if (step === 'press-enter') {
        return { pending: await pressEnter(target, mark.tag), tag: mark.tag };
      }
      return undefined;
    });
  };

  const screenTarget = (target: DeliveryTarget): ScreenTarget => {
    if (!target.screen) throw new Error('this harness has no screen reader');
    refOf.set(target.tmuxName, target.ref);
    return {
      tmuxName: target.tmuxName,
      ref: target.ref,
      owner: target.owner,
      screen: target.screen,
    };
  };

  const typeInto = async (
    request: DeliveryRequest,
    text: string,
    progress: (outcome: 'queued' | 'held', reason: string) => void,
  ): Promise<Typed> => {
    if (request.signal?.aborted) throw cancelled();
    const target = await options.resolve(request.ref);
    const held = onceEach((reason: string) => progress('held', reason));
    try {
      for (let attempt = 1; ; attempt += 1) {
        await refuseIfExited(target);
        await states.waitUntilTypeable(target.tmuxName, {
          startingTimeoutMs: timing.readyTimeoutMs,
          onHeld: held,
          ...(request.signal ? { signal: request.signal } : {}),
        });
        // A harness that ended while waiting (a person picked "No, exit" in a start dialog).
        await refuseIfExited(target);
        const resume =
          attempt === 1 && request.resume ? await resumed(target, request.resume) : undefined;
        if (resume === 'submitted') {
          // Typed before the restart: let go of it; no confirmation can come any more.
          await request.onSubmitted?.();
          return { confirmed: false };
        }
        if (resume) {
          const busy = states.state(target.tmuxName) === 'busy';
          return await submitted(target, resume.pending, resume.tag, busy, progress, request);
        }
        const screen = target.screen
          ? await inputBox.emptyBox(screenTarget(target), held, request.signal)
          : undefined;
        if (request.signal?.aborted) throw cancelled();
        const tag = newDeliveryTag(confirmations.pendingTags(target.tmuxName));
        const payload = target.agent ? frameMessage(request.origin, text, tag) : text;
        const busy = states.state(target.tmuxName) === 'busy' || screen?.busy === true;
        const pending = await pasteAndSubmit(target, payload, tag, held, request);
        if (pending === 'swallowed') {
          if (attempt >= 3) {
            throw new LoopError(
              'delivery_failed',
              `a dialog in \`${target.tmuxName}\` took the message three times; nothing was ` +
                `submitted — look at it with ` +
                `\`${tmuxAttachCommand(target.tmuxName, options.tmuxSocket, { readOnly: true })}\``,
            );
          }
          continue;
        }
        return await submitted(target, pending, tag, busy, progress, request);
      }
    } catch (error) {
      throw explained(error, target);
    }
  };

  /** After the submitting Enter: the origin lets go of the message, then its confirmation. */
  const submitted = async (
    target: DeliveryTarget,
    pending: PendingConfirmation | undefined,
    tag: string,
    busy: boolean,
    progress: (outcome: 'queued' | 'held', reason: string) => void,
    request: DeliveryRequest,
  ): Promise<Typed> => {
    await request.onSubmitted?.();
    return pending
      ? confirmation.afterEnter(target, pending, tag, busy, progress)
      : { confirmed: true };
  };

  /** A harness that died before anyone noticed is refused now, not held as still starting. */
  const refuseIfExited = async (target: DeliveryTarget): Promise<void> => {
    const state = states.state(target.tmuxName);
    if (state === undefined || state === 'idle' || state === 'busy') return;
    const info = await driver.probe(target.tmuxName);
    if (info.state === 'dead' && info.owner === target.owner) {
      throw new LoopError('session_exited', `tmux session \`${target.tmuxName}\` has exited`, {
        ...(info.deadStatus === undefined ? {} : { exitStatus: info.deadStatus }),
      });
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
      const setStatus = (
        outcome: Parameters<DeliveryStatuses['update']>[0]['outcome'],
        extra = {},
      ) => options.statuses?.update({ deliveryId, ref: request.ref, outcome, ...extra });
      const progress = (outcome: 'queued' | 'held', reason: string): void => {
        events.record(`delivery.${outcome}`, { ...base, reason });
        setStatus(outcome, { reason });
        request.onProgress?.({ deliveryId, outcome, reason });
      };
      try {
        const text = checkedText(request.text);
        setStatus('pending');
        // Queued by ref before anything awaits, so messages keep the order they were sent in even
        // when resolving one takes longer than another.
        if (queue.depth(request.ref) > 0) {
          progress('queued', behindEarlier);
          // Behind a boot prompt that waits for a dialog: say why at once, not when its turn comes.
          void options
            .resolve(request.ref)
            .then((target) => {
              if (states.state(target.tmuxName) === 'blocked') progress('held', 'dialog');
            })
            // A ref that does not resolve is refused when its own turn in the queue comes.
            .catch(() => undefined);
        }
        const typed = await queue.run(request.ref, () => typeInto(request, text, progress));
        const confirmed = 'later' in typed ? await typed.later : typed.confirmed;
        const outcome = confirmed ? 'delivered' : 'unconfirmed';
        events.record(`delivery.${outcome}`, { ...base, ms: elapsed(started) });
        setStatus(outcome);
        return { outcome, deliveryId };
      } catch (error) {
        const failure = asLoopError(error);
        events.record('delivery.failed', {
          ...base,
          code: failure.code,
          reason: failure.message,
          ms: elapsed(started),
        });
        setStatus('failed', { reason: failure.message, code: failure.code });
        throw failure;
      }
    },
  };
}

/** Calls `tell` once per distinct reason. */
function onceEach(tell: (reason: string) => void): (reason: string) => void {
  const told = new Set<string>();
  return (reason) => {
    if (told.has(reason)) return;
    told.add(reason);
    tell(reason);
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
