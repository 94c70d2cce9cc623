import { asLoopError } from '../errors.js';
import { parseStandingRef } from '../refs.js';
import type { StandingService } from '../standing/create-standing-service.js';
import { threadHelp } from './commands/parse-thread-command.js';
import { escapeMrkdwn } from './text/escape-mrkdwn.js';
import { formatStatusReply } from './text/format-session-line.js';

export type ThreadCommand =
  | { readonly command: 'status' | 'interrupt' | 'restart' | 'help' }
  | { readonly command: 'unknown'; readonly given: string };

export interface ThreadCommands {
  /** Runs a `!` command for the session bound to the thread; returns the reply text. */
  run(ref: string, command: ThreadCommand): Promise<string>;
}

/** `!status`, `!interrupt`, `!restart`, `!help` (docs/design.md §6): typed in a thread, never forwarded. */
export function createThreadCommands(options: {
  readonly standing: StandingService;
}): ThreadCommands {
  const { standing } = options;
  return {
    async run(ref, command) {
      if (command.command === 'help') return threadHelp();
      if (command.command === 'unknown')
        return `Unknown command \`!${escapeMrkdwn(command.given)}\`.\n${threadHelp()}`;
      const name = parseStandingRef(ref);
      if (!name)
        return `\`!${command.command}\` works for standing sessions; this thread is bound to ${ref}.`;
      try {
        switch (command.command) {
          case 'status':
            return formatStatusReply(await standing.get(name));
          case 'interrupt':
            await standing.interrupt(name);
            return `⏹️ Sent the interrupt key to \`${name}\`.`;
          case 'restart': {
            const { outcome } = await standing.restart(name);
            return `🔄 Restarted \`${name}\` (${outcome}).`;
          }
        }
      } catch (error) {
        return `⚠️ ${asLoopError(error).message}`;
      }
    },
  };
}
