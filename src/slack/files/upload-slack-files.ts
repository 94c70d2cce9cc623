import type { WebClient } from '@slack/web-api';
import { LoopError } from '../../errors.js';
import type { Logger } from '../../log/create-logger.js';
import type { OutgoingFile } from '../../replies/outgoing-file.js';
import { retryCall } from '../../retry/retry-call.js';
import { callSlack } from '../call-slack.js';
import type { Fetch } from './download-slack-file.js';

/**
 * Files into a thread with Slack's external upload flow (docs/design.md §15): for each file
 * `files.getUploadURLExternal`, then its bytes POSTed to the URL Slack returned, then one
 * `files.completeUploadExternal` that shares them all in the thread. Each step is retried.
 */
export async function uploadSlackFiles(options: {
  readonly client: WebClient;
  readonly channel: string;
  readonly threadTs: string;
  readonly files: readonly OutgoingFile[];
  readonly logger: Logger;
  readonly fetch?: Fetch;
  readonly sleep?: (ms: number) => Promise<unknown>;
}): Promise<void> {
  const { client, logger } = options;
  const run = options.fetch ?? fetch;
  const retry = { logger, ...(options.sleep ? { sleep: options.sleep } : {}) };
  const started: { id: string; title: string }[] = [];
  for (const file of options.files) {
    if (file.content.length === 0) {
      throw new LoopError('bad_request', `${file.name} is empty; Slack takes no empty files`);
    }
    const answer = await callSlack(
      'files.getUploadURLExternal',
      () => client.files.getUploadURLExternal({ filename: file.name, length: file.content.length }),
      retry,
    );
    const url = answer.upload_url;
    const id = answer.file_id;
    if (typeof url !== 'string' || typeof id !== 'string') {
      throw new LoopError('slack_failed', 'Slack gave no upload address for the file');
    }
    await retryCall(
      async () => {
        const response = await run(url, {
          method: 'POST',
          body: file.content,
          headers: { 'content-type': 'application/octet-stream' },
          signal: AbortSignal.timeout(120_000),
        });
        if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      },
      (error, attempt) => ({
        waitMs: attempt < 3 ? 1_000 * attempt : undefined,
        fields: { call: 'files.upload', reason: error instanceof Error ? error.message : 'failed' },
        failure: () =>
          new LoopError(
            'slack_failed',
            `Slack did not take the bytes of ${file.name} (${error instanceof Error ? error.message : 'failed'})`,
          ),
      }),
      { ...retry, event: 'slack.retry' },
    );
    started.push({ id, title: file.name });
  }
  await callSlack(
    'files.completeUploadExternal',
    () =>
      client.files.completeUploadExternal({
        files: started as [{ id: string; title: string }],
        channel_id: options.channel,
        thread_ts: options.threadTs,
      }),
    retry,
  );
}
