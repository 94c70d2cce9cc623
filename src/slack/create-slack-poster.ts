import type { WebClient } from '@slack/web-api';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { ReplyKind, ReplySink } from '../replies/reply-router.js';
import { threadSay } from './call-slack.js';
import type { ChannelPacer } from './create-channel-pacer.js';
import { markdownToMrkdwn } from './text/markdown-to-mrkdwn.js';
import { splitMessage } from './text/split-message.js';
import type { ThreadBindings } from './thread-bindings.js';
import { uploadSlackFiles } from './files/upload-slack-files.js';

/** Slack's markdown block holds up to 12,000 characters; smaller parts read better in a thread. */
export const slackPartLimit = 3_500;

/**
 * An agent's words into its Slack thread (docs/design.md §6, §8): Markdown as a native markdown block
 * with a mrkdwn fallback, split at fence-aware boundaries, paced per channel, retried on 429 and
 * transient `ok:false`.
 */
export function createSlackPoster(options: {
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  readonly pacer: ChannelPacer;
  readonly logger: Logger;
  readonly sleep?: (ms: number) => Promise<unknown>;
}): ReplySink {
  const { client, bindings, pacer, logger } = options;
  return {
    surface: 'slack',
    async accepts(ref) {
      return (await bindings.forRef(ref)) !== undefined;
    },
    async post(ref, text, kind: ReplyKind, files = []) {
      const binding = await bindings.forRef(ref);
      if (!binding) throw new LoopError('not_found', `no Slack thread is bound to ${ref}`);
      const parts = text.trim() === '' ? [] : splitMessage(text, slackPartLimit);
      const say = threadSay(client, binding, {
        logger,
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
      for (const part of parts) {
        await pacer.run(binding.channel, () =>
          say({
            text: markdownToMrkdwn(part),
            blocks: [{ type: 'markdown', text: part }],
            unfurl_links: false,
            metadata: { event_type: 'the_loop_reply', event_payload: { kind } },
          }),
        );
      }
      if (files.length > 0) {
        // After the words, in the same turn of the channel's pace, so the files follow the text.
        await pacer.run(binding.channel, () =>
          uploadSlackFiles({
            client,
            channel: binding.channel,
            threadTs: binding.threadTs,
            files,
            logger,
            ...(options.sleep ? { sleep: options.sleep } : {}),
          }),
        );
      }
      return { surface: 'slack', location: `${binding.channel}/${binding.threadTs}` };
    },
  };
}
