import type { StartDialog } from '../sessions/watch-start-dialogs.js';
import type { Logger } from '../log/create-logger.js';
import type { ReplyRouter } from './reply-router.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

const asks: Record<StartDialog, string> = {
  trust: 'whether to trust the folder it runs in',
  'api-key': 'whether to use the API key in its environment',
};

/**
 * What a session's people are told, once, when its harness shows a dialog before it starts
 * (docs/design.md §13 `blocked`): nothing is typed into it, since a key would answer the dialog, and the
 * boot prompt and waiting messages go in once a person has answered it in the terminal.
 */
export function startDialogNotice(
  dialog: StartDialog,
  facts: { readonly tmuxName: string; readonly tmuxSocket?: string },
): string {
  return (
    `⏳ The agent has not started: Claude Code asks ${asks[dialog]}. Nothing is typed until ` +
    `someone answers it in the terminal: \`${tmuxAttachCommand(facts.tmuxName, facts.tmuxSocket)}\`; ` +
    `the boot prompt and waiting messages go in then.`
  );
}

/**
 * What a session's people are told, once, when its screen shows neither the input box nor a
 * dialog the-loop knows (docs/design.md §13, §23): the screen's first lines, that nothing is
 * typed, and how to answer it.
 */
export function unreadableScreenNotice(
  head: readonly string[],
  facts: { readonly tmuxName: string; readonly tmuxSocket?: string },
): string {
  const quoted =
    head.length > 0 ? head.map((line) => `> ${line}`).join('\n') : '> (nothing readable)';
  return (
    `⏳ The agent is blocked: its screen shows something the-loop does not recognise, so nothing ` +
    `is typed into it:\n${quoted}\n` +
    `Answer it in the terminal: \`${tmuxAttachCommand(facts.tmuxName, facts.tmuxSocket)}\`; ` +
    `waiting messages go in once the input box is back.`
  );
}

/**
 * The start-dialog notices of serve: each dialog is recorded (`agent.start_dialog`) at once and
 * told through the reply router once `tellThrough` has it — the launcher that sees dialogs is
 * built before the surfaces the router posts to.
 */
export function startDialogNotices(options: {
  readonly events: { record(event: string, fields: Record<string, unknown>): void };
  readonly logger: Logger;
  /** `tmux.socket`, for the attach remedy ("" = the default server). */
  readonly tmuxSocket: string;
}): {
  seen(session: { readonly ref?: string; readonly tmuxName: string }, dialog: StartDialog): void;
  /** A screen the-loop cannot read blocked the session (at start or later): told once per block. */
  unreadable(
    session: { readonly ref?: string; readonly tmuxName: string },
    head: readonly string[],
  ): void;
  tellThrough(replies: Pick<ReplyRouter, 'post'>): void;
} {
  const { events, logger, tmuxSocket } = options;
  let replies: Pick<ReplyRouter, 'post'> | undefined;
  return {
    seen(session, dialog) {
      const ref = session.ref ?? session.tmuxName;
      events.record('agent.start_dialog', { ref, dialog });
      const text = startDialogNotice(dialog, {
        tmuxName: session.tmuxName,
        ...(tmuxSocket ? { tmuxSocket } : {}),
      });
      void replies?.post(ref, text, 'notice').catch((error: unknown) => {
        logger.warn({ event: 'session.start_dialog_notice_failed', ref, err: error }, 'not told');
      });
    },
    unreadable(session, head) {
      const ref = session.ref ?? session.tmuxName;
      events.record('agent.start_dialog', { ref, dialog: 'unknown' });
      const text = unreadableScreenNotice(head, {
        tmuxName: session.tmuxName,
        ...(tmuxSocket ? { tmuxSocket } : {}),
      });
      void replies?.post(ref, text, 'notice').catch((error: unknown) => {
        logger.warn({ event: 'session.start_dialog_notice_failed', ref, err: error }, 'not told');
      });
    },
    tellThrough(router) {
      replies = router;
    },
  };
}
