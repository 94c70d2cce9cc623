import path from 'node:path';
import { asLoopError } from '../../errors.js';
import type { Logger } from '../../log/create-logger.js';
import { ensurePrivateDir } from '../../state/ensure-private-dir.js';
import { downloadSlackFile, type Fetch } from './download-slack-file.js';
import type { FileOutcome } from './format-file-lines.js';
import { mayCarryBotToken } from './may-carry-bot-token.js';
import { sessionFilesDir } from './session-files-dir.js';
import type { SlackFile } from './slack-file.js';
import { storedFileNames } from './stored-file-names.js';

export type FileReceiver = (
  files: readonly SlackFile[],
  messageTs: string,
  tmuxName: string,
) => Promise<FileOutcome[]>;

/**
 * Files from a thread reply into `<state.root>/files/<tmux session name>/` (docs/design.md §15), one at a
 * time, each on its own: a file too large, not on Slack's file host or cut off is an outcome that
 * says why, and the others are still fetched.
 */
export function createFileReceiver(options: {
  readonly botToken: string;
  readonly apiUrl: string | undefined;
  readonly maxBytes: number;
  readonly stateRoot: string;
  readonly logger: Logger;
  readonly timeoutMs?: number;
  readonly fetch?: Fetch;
}): FileReceiver {
  const { logger, maxBytes } = options;
  return async (files, messageTs, tmuxName) => {
    const dir = sessionFilesDir(options.stateRoot, tmuxName);
    await ensurePrivateDir(dir);
    const names = storedFileNames(
      messageTs,
      files.map((file) => file.name),
    );
    const outcomes: FileOutcome[] = [];
    for (const [index, file] of files.entries()) {
      const failed = (why: string): FileOutcome => ({ kind: 'failed', name: file.name, why });
      if (file.size !== undefined && file.size > maxBytes) {
        outcomes.push(
          failed(`too large (${file.size} bytes; the limit is slack.files.maxBytes = ${maxBytes})`),
        );
        continue;
      }
      if (file.url === undefined) {
        outcomes.push(failed('Slack offers no download of it (an external or hidden file)'));
        continue;
      }
      if (!mayCarryBotToken(file.url, options.apiUrl)) {
        outcomes.push(failed("its address is not on Slack's file host, so it was not fetched"));
        continue;
      }
      const destination = path.join(dir, names[index] ?? file.id);
      try {
        const bytes = await downloadSlackFile({
          url: file.url,
          botToken: options.botToken,
          destination,
          maxBytes,
          timeoutMs: options.timeoutMs ?? 120_000,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
        outcomes.push({ kind: 'stored', name: file.name, path: destination, bytes });
        logger.info({ event: 'slack.file_received', fileId: file.id, bytes }, 'file stored');
      } catch (error) {
        const failure = asLoopError(error);
        logger.warn(
          { event: 'slack.file_failed', fileId: file.id, code: failure.code },
          'file not stored',
        );
        outcomes.push(failed(failure.message));
      }
    }
    return outcomes;
  };
}
