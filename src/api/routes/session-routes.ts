import { LoopError } from '../../errors.js';
import {
  createHookTable,
  hookEvents,
  isHookEvent,
  type HookTableOptions,
} from '../../hooks/hook-table.js';
import { decodeOutgoingFiles, postBodyLimit } from '../../replies/decode-outgoing-files.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';

/** Who a session token belongs to; the only way a session's words get attributed to it. */
export interface SessionDirectory {
  sessionForToken(token: string): Promise<{ ref: string; tmuxName: string } | undefined>;
}

/**
 * Routes a session calls from inside its pane: `the-loop post` and Claude Code's hooks. The token
 * decides who is speaking; a body can never name another session.
 */
export function sessionRoutes(
  options: HookTableOptions & {
    readonly directory: SessionDirectory;
    /** The largest post: its files together, in bytes (`slack.files.maxBytes`). */
    readonly maxPostFileBytes: number;
    /** Which of the-loop's own secrets a file holds, if any: such a file is never posted. */
    readonly secretIn?: (bytes: Buffer) => string | undefined;
  },
): Route[] {
  const { directory, replies } = options;
  const hookTable = createHookTable(options);

  const caller = async (token: string | undefined) => {
    if (!token) {
      throw new LoopError(
        'unauthorized',
        'missing X-The-Loop-Session-Token; run this from inside a session started by the-loop',
      );
    }
    const session = await directory.sessionForToken(token);
    if (!session) {
      throw new LoopError(
        'forbidden',
        'this session token belongs to no running session; a session can only speak as itself',
      );
    }
    return session;
  };

  return [
    {
      method: 'POST',
      path: '/api/v1/post',
      operationId: 'postAsSession',
      auth: 'session',
      maxBodyBytes: postBodyLimit(options.maxPostFileBytes),
      handler: async ({ body, sessionToken }) => {
        const session = await caller(sessionToken);
        const fields = objectBody(body);
        const files = decodeOutgoingFiles(fields['files'], options.maxPostFileBytes);
        for (const file of files) {
          const secret = options.secretIn?.(file.content);
          if (secret !== undefined) {
            throw new LoopError(
              'file_holds_secret',
              `${file.name} holds the value of ${secret}, one of the-loop's own secrets, so ` +
                'nothing was posted: remove the secret from the file and post it again',
              { secret },
            );
          }
        }
        const text = fields['text'] ?? '';
        if (typeof text !== 'string' || (text.trim() === '' && files.length === 0)) {
          throw new LoopError(
            'empty_message',
            'nothing to post; pass the text as an argument or on stdin, or attach a --file',
          );
        }
        return { status: 200, body: await replies.post(session.ref, text, 'reply', files) };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/hooks/{event}',
      operationId: 'receiveHook',
      auth: 'session',
      handler: async ({ params, body, sessionToken, signal }) => {
        const event = params['event'] ?? '';
        if (!isHookEvent(event)) {
          throw new LoopError(
            'bad_request',
            `unknown hook event \`${event}\`; expected one of ${hookEvents.join(', ')}`,
          );
        }
        const session = await caller(sessionToken);
        const answer = await hookTable(event, session, objectBody(body), signal);
        return answer ? { status: 200, body: answer } : { status: 204, body: undefined };
      },
    },
  ];
}
