import { setTimeout as delay } from 'node:timers/promises';
import { LoopError } from '../errors.js';
import type { AgentScreen, ScreenReader } from '../harness/claude-screen.js';
import { boxHoldsPaste } from '../harness/claude-screen.js';
import type { TmuxDriver } from '../tmux/tmux-driver.js';
import { cancelled } from './agent-states.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

/** A session whose screen the-loop can read, as the input-box steps need it. */
export interface ScreenTarget {
  readonly tmuxName: string;
  /** The session's ref, for what its people are told. */
  readonly ref?: string;
  readonly owner: string;
  readonly screen: ScreenReader;
}

export type HeldReason = 'permission' | 'dialog' | 'draft';

const pollMs = 150;
/** How long text must sit unchanged in an idle-looking box before it counts as left over. */
const leftoverSettleMs = 600;

/**
 * The steps around a paste that look at the screen first (docs/design.md §13, §17): the box must be
 * empty before a paste, Enter goes only onto our own paste, and a dialog is never typed into.
 */
export function createInputBox(options: {
  readonly driver: TmuxDriver;
  readonly draftWaitMs: number;
  /**
   * How long a screen may show neither an input box nor a known dialog before it is unreadable
   * (docs/design.md §13): the session is then blocked through `unreadable`, and the message waits.
   */
  readonly noBoxTimeoutMs: number;
  /** Blocks the session on a screen the-loop cannot read, telling its people once. */
  readonly unreadable?: (target: ScreenTarget, capture: string) => void;
  /** Runs a key press under the session's lifecycle lock. */
  readonly press: (target: ScreenTarget, key: string) => Promise<void>;
  /** `tmux.socket` ("" or unset = the default server), for the attach line in refusals (§17). */
  readonly tmuxSocket?: string;
}) {
  const { driver } = options;

  const attach = (target: ScreenTarget, readOnly = true): string =>
    tmuxAttachCommand(target.tmuxName, options.tmuxSocket, { readOnly });

  const look = async (target: ScreenTarget): Promise<AgentScreen> =>
    target.screen(await driver.capture(target.tmuxName));

  const lookWithCapture = async (
    target: ScreenTarget,
  ): Promise<{ screen: AgentScreen; capture: string }> => {
    const capture = await driver.capture(target.tmuxName);
    return { screen: target.screen(capture), capture };
  };

  /**
   * Waits until the input box is there and empty. What the-loop left in it (a paste whose Enter
   * was lost in a crash, a prompt Claude Code restored after an interrupt) is cleared; a person's
   * draft (a client is attached) is waited for, up to `draftWaitMs`.
   */
  const emptyBox = async (
    target: ScreenTarget,
    hold: (reason: HeldReason) => void,
    signal: AbortSignal | undefined,
  ): Promise<AgentScreen> => {
    let draftSince: number | undefined;
    let noBoxSince: number | undefined;
    let clears = 0;
    // The box's text and since when it has shown unchanged, with no turn running.
    let leftover: { readonly text: string; readonly since: number } | undefined;
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const { screen, capture } = await lookWithCapture(target);
      if (screen.box !== undefined) noBoxSince = undefined;
      if (screen.box === '') return screen;
      if (screen.dialog) {
        hold(screen.dialog === 'permission' ? 'permission' : 'dialog');
      } else if (screen.box === undefined) {
        noBoxSince ??= Date.now();
        if (Date.now() - noBoxSince >= options.noBoxTimeoutMs) {
          if (!options.unreadable) {
            throw new LoopError(
              'delivery_failed',
              `\`${target.tmuxName}\` shows no input box and no dialog the-loop knows; look at it ` +
                `with \`${attach(target)}\``,
            );
          }
          // Never a key on a screen the-loop did not recognise: the session is blocked and the
          // message waits, as for a known dialog, until the input box is back (§13).
          options.unreadable(target, capture);
          hold('dialog');
        }
      } else {
        if ((await driver.attachedClients(target.tmuxName)) > 0) {
          hold('draft');
          draftSince ??= Date.now();
          if (Date.now() - draftSince > options.draftWaitMs) {
            throw new LoopError(
              'delivery_failed',
              `someone is typing in \`${target.tmuxName}\` (its input box has a draft); the message ` +
                `was not typed over it — send it again once the draft is sent or cleared`,
            );
          }
        } else if (screen.busy) {
          // Escape in a running turn interrupts it: leftover text waits for the turn to end.
          leftover = undefined;
        } else if (clears === 0 && leftover?.text !== screen.box) {
          // Right after an Enter the box can still show the prompt just submitted, before the
          // turn's spinner is drawn; an Escape then would interrupt that turn. Only text that
          // stays put is left over. (Once clearing began, the second Escape follows at once.)
          leftover = { text: screen.box, since: Date.now() };
        } else if (clears === 0 && Date.now() - (leftover?.since ?? 0) < leftoverSettleMs) {
          // Not yet settled: look again.
        } else if (clears < 4) {
          // Escape twice empties a box with text; Escape on an empty box opens other UI, so the
          // box is looked at before each press.
          clears += 1;
          await options.press(target, 'Escape');
        } else {
          throw new LoopError(
            'delivery_failed',
            `the input box of \`${target.tmuxName}\` holds text the-loop could not clear; nothing ` +
              `was typed — look at it with \`${attach(target, false)}\``,
          );
        }
      }
      await delay(pollMs);
    }
  };

  /**
   * Waits for the paste to show in the box. `swallowed` when a dialog took the screen and the box
   * came back empty (the paste went into the dialog: it may be pasted again); a slow or frozen
   * screen is waited for, up to `ms`, and then refused — a paste is never sent twice on a guess.
   */
  const awaitPaste = async (
    target: ScreenTarget,
    tag: string,
    ms: number,
    hold: (reason: HeldReason) => void,
    signal: AbortSignal | undefined,
  ): Promise<'shown' | 'swallowed'> => {
    const deadline = Date.now() + ms;
    let sawDialog = false;
    for (;;) {
      const screen = await look(target);
      if (boxHoldsPaste(screen, tag)) return 'shown';
      if (screen.dialog) {
        sawDialog = true;
        hold(screen.dialog === 'permission' ? 'permission' : 'dialog');
      } else if (sawDialog && screen.box === '') {
        return 'swallowed';
      } else if (Date.now() >= deadline) {
        throw new LoopError(
          'delivery_failed',
          `the message did not show in \`${target.tmuxName}\`'s input box within ` +
            `${Math.round(ms / 1000)} s, so Enter was not pressed and nothing was submitted; look at ` +
            `it with \`${attach(target)}\``,
        );
      }
      if (signal?.aborted && !sawDialog) throw cancelled();
      await delay(sawDialog ? pollMs : pollMs / 3);
    }
  };

  return { look, emptyBox, awaitPaste };
}
