import type { Config } from '../config/types.js';
import { asLoopError } from '../errors.js';
import type { StandingService } from '../standing/create-standing-service.js';
import { parseSlashCommand, slashUsage } from './commands/parse-slash-command.js';
import { formatSessionLine } from './text/format-session-line.js';
import { decodeSlackText } from './text/decode-slack-text.js';

export interface SlashRequest {
  readonly text: string;
  readonly userId: string;
  readonly channelId: string;
}

/** What a slash command answers: the first reply (within Slack's 3 s) and, for slow verbs, a follow-up. */
export interface SlashAnswer {
  readonly immediate: string;
  readonly later?: Promise<string>;
}

/**
 * `/loop …` (docs/design.md §6): authorized users only, ephemeral answers, usage help on bad input and
 * never a stack trace. Verbs that start or stop processes answer at once and follow up.
 */
export function createSlashHandler(options: {
  readonly config: Config;
  readonly standing: StandingService;
  /** In a fleet: one line per instance (`/loop instances`, docs/design.md §21). */
  readonly instances?: () => Promise<string>;
}) {
  const { config, standing } = options;
  const command = config.slack.command;

  const follow = (work: () => Promise<string>): Promise<string> =>
    work().catch((error: unknown) => `⚠️ ${asLoopError(error).message}`);

  return async (request: SlashRequest): Promise<SlashAnswer> => {
    if (!config.slack.authorizedUsers.includes(request.userId)) {
      return {
        immediate: `You are not authorized to use \`${command}\`. An operator can add your Slack id \`${request.userId}\` to \`slack.authorizedUsers\`.`,
      };
    }
    // Slack escapes &, < and > in command text; parse what the person typed.
    const parsed = parseSlashCommand(decodeSlackText(request.text), command);
    switch (parsed.verb) {
      case 'help':
        return { immediate: slashUsage(command) };
      case 'instances':
        return {
          immediate: options.instances
            ? await options.instances()
            : 'This instance is not in a fleet (no `fleet` block in its config).',
        };
      case 'usage-error':
        return { immediate: `${parsed.message}\n\n${slashUsage(command)}` };
      case 'list':
      case 'status': {
        const sessions = await standing.list();
        const lines = sessions.map((view) => formatSessionLine(view));
        return {
          immediate: lines.length
            ? lines.join('\n')
            : `No standing sessions yet. Try \`${command} create <name>\`.`,
        };
      }
      case 'create':
        return {
          immediate: `Creating \`${parsed.name}\`…`,
          later: follow(async () => {
            const created = await standing.create({
              name: parsed.name,
              slackChannel: request.channelId,
              ...(parsed.harness ? { harness: parsed.harness } : {}),
              ...(parsed.cwd ? { cwd: parsed.cwd } : {}),
              ...(parsed.brief ? { prompt: parsed.brief } : {}),
            });
            return `✅ Created \`${created.session.name}\` (${created.outcome ?? 'not started'}); its thread is announced in this channel.`;
          }),
        };
      case 'delete':
        return {
          immediate: `Deleting \`${parsed.name}\`…`,
          later: follow(async () => {
            await standing.delete(parsed.name);
            return `🗑️ Deleted \`${parsed.name}\`.`;
          }),
        };
      case 'start':
      case 'stop':
      case 'restart': {
        const verb = parsed.verb;
        return {
          immediate: `Running \`${verb}\` on \`${parsed.name}\`…`,
          later: follow(
            async () => `✅ \`${parsed.name}\`: ${(await standing[verb](parsed.name)).outcome}.`,
          ),
        };
      }
    }
  };
}
