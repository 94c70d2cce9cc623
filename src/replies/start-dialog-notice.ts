import type { StartDialog } from '../harness/watch-start-dialogs.js';

const asks: Record<StartDialog, string> = {
  trust: 'whether to trust the folder it runs in',
  'api-key': 'whether to use the API key in its environment',
};

/**
 * What a session's people are told, once, when its harness shows a dialog before it starts
 * (DESIGN §13 `blocked`): nothing is typed into it, since a key would answer the dialog, and the
 * boot prompt and waiting messages go in once a person has answered it in the terminal.
 */
export function startDialogNotice(
  dialog: StartDialog,
  facts: { readonly tmuxName: string; readonly tmuxSocket?: string },
): string {
  const socket = facts.tmuxSocket ? `-L '${facts.tmuxSocket}' ` : '';
  return (
    `⏳ The agent has not started: Claude Code asks ${asks[dialog]}. Nothing is typed until ` +
    `someone answers it in the terminal: \`tmux ${socket}attach -t '=${facts.tmuxName}'\`; ` +
    `the boot prompt and waiting messages go in then.`
  );
}
