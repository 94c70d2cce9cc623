import type { CommandHandler } from '../command-context.js';
import { formatColumns } from '../format.js';

/** `the-loop workitem list`: this instance's work-item sessions. */
export const runWorkItemList: CommandHandler = async (context) => {
  const workItems = await (await context.loop()).workItems.list();
  if (context.json) context.printJson(workItems);
  else if (workItems.length === 0) context.print('no work-item sessions');
  else {
    context.print(
      formatColumns([
        ['REF', 'STATUS', 'TMUX', 'STARTED BY', 'STARTED'],
        ...workItems.map((item) => [
          item.ref,
          item.status,
          item.tmux,
          item.startedBy,
          item.startedAt,
        ]),
      ]),
    );
  }
  return 0;
};

/** `start` counts as addressed to this instance, so a locked one refuses unmanaged items. */
const workItemVerb =
  (verb: 'start' | 'stop'): CommandHandler =>
  async (context) => {
    const result = await (await context.loop()).workItems[verb](context.args['ref'] ?? '');
    if (context.json) context.printJson(result);
    else context.print(`${context.args['ref'] ?? ''}: ${result.outcome}`);
    return 0;
  };

/** `the-loop workitem start REF`. */
export const runWorkItemStart = workItemVerb('start');

/** `the-loop workitem stop REF`. */
export const runWorkItemStop = workItemVerb('stop');
