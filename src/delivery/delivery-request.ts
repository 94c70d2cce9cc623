import type { ScreenReader } from '../harness/claude-screen.js';
import type { Origin } from './frame-message.js';
import type { SubmitMark } from './submit-mark.js';

/**
 * What the delivery core is asked and answers (docs/design.md §17): one message for one session,
 * from whichever surface, and how it went.
 */

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
  /** Reads the harness's screen (Claude Code): dialogs and the input box are looked at. */
  readonly screen?: ScreenReader;
}

/** Throws a LoopError naming the remedy when the ref has no running session. */
export type ResolveTarget = (ref: string) => Promise<DeliveryTarget>;

/** An outcome known before the final one (docs/design.md §17): waiting its turn, or held and why. */
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
  /**
   * Called under the session's lock right before the submitting Enter, with what a restart needs
   * to tell whether that Enter went in (submit-mark.ts): an origin that keeps the message until
   * it is typed keeps the mark with it, until `onSubmitted` lets go of both.
   */
  readonly onSubmitting?: (mark: SubmitMark) => Promise<void>;
  /** The mark a process that crashed left for this message: look before typing it again. */
  readonly resume?: SubmitMark;
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
