import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { WebClient } from '@slack/web-api';
import type { Config } from '../../config/types.js';
import type { Logger } from '../../log/create-logger.js';
import { ensurePrivateDir } from '../../state/ensure-private-dir.js';
import { readRegularFile } from '../../state/read-regular-file.js';
import { writeFileAtomic } from '../../state/write-file-atomic.js';
import { callSlack } from '../call-slack.js';

export interface StatusMessage {
  readonly channel: string;
  readonly ts: string;
}

/** The status messages of turns still running, on disk, so a restarted serve can close them. */
export interface OpenStatusMessages {
  opened(message: StatusMessage): Promise<void>;
  closed(message: StatusMessage): Promise<void>;
  leftOver(): Promise<StatusMessage[]>;
}

/** What a status message left by a killed serve says once the restarted one finds it. */
export const restartedStatusText =
  '⏹ the-loop restarted during this turn: its progress was not followed to the end';

/**
 * One small file per open status message (`<state.root>/slack/progress/`), written when it is
 * posted and removed when its turn's summary is written: what is left at start was open when
 * serve died (issue 21.8: a kill during a progress edit left `⏳ working …` for good).
 */
export function createOpenStatusMessages(dir: string, logger: Logger): OpenStatusMessages {
  const fileOf = (message: StatusMessage) =>
    path.join(dir, `${message.channel}-${message.ts}.json`.replace(/[^A-Za-z0-9.-]/g, '_'));
  const bestEffort = async (what: string, work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      logger.warn({ event: 'slack.progress_record_failed', what, err: error }, 'not recorded');
    }
  };
  return {
    opened: (message) =>
      bestEffort('opened', async () => {
        await ensurePrivateDir(dir);
        await writeFileAtomic(fileOf(message), JSON.stringify(message));
      }),
    closed: (message) => bestEffort('closed', () => rm(fileOf(message), { force: true })),
    async leftOver() {
      const names = await readdir(dir).catch(() => [] as string[]);
      const found: StatusMessage[] = [];
      for (const name of names.filter((entry) => entry.endsWith('.json'))) {
        try {
          const value: unknown = JSON.parse((await readRegularFile(path.join(dir, name))) ?? '');
          const record = value as Partial<StatusMessage>;
          if (typeof record.channel === 'string' && typeof record.ts === 'string') {
            found.push({ channel: record.channel, ts: record.ts });
          } else await rm(path.join(dir, name), { force: true });
        } catch {
          await rm(path.join(dir, name), { force: true });
        }
      }
      return found;
    },
  };
}

/** At start: each status message a killed serve left open says so, or goes (`delete` mode). */
export async function closeLeftOverStatusMessages(options: {
  readonly client: WebClient;
  readonly open: OpenStatusMessages;
  readonly mode: Config['slack']['progress'];
  readonly logger: Logger;
}): Promise<void> {
  const { client, open, logger } = options;
  for (const message of await open.leftOver()) {
    try {
      if (options.mode === 'delete') {
        await callSlack('chat.delete', () => client.chat.delete({ ...message }), { logger });
      } else {
        await callSlack(
          'chat.update',
          () => client.chat.update({ ...message, text: restartedStatusText }),
          { logger },
        );
      }
    } catch (error) {
      logger.warn({ event: 'slack.progress_failed', call: 'recover', err: error }, 'not closed');
    }
    await open.closed(message);
  }
}
