import type { ConfirmationTracker } from '../../delivery/confirmation-tracker.js';
import type { ReadinessTracker } from '../../delivery/readiness-tracker.js';
import { LoopError } from '../../errors.js';
import { readLastAssistantMessage } from '../../harness/read-last-assistant-message.js';
import { readOutgoingFiles } from '../../replies/read-outgoing-files.js';
import type { ReplyRouter } from '../../replies/reply-router.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';

/** Who a session token belongs to; the only way a session's words get attributed to it. */
export interface SessionDirectory {
  sessionForToken(token: string): Promise<{ ref: string; tmuxName: string } | undefined>;
}

export const hookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  'PreToolUse',
  'PostToolUse',
] as const;

/**
 * Where a turn's progress goes (the Slack status message, DESIGN §15). Each call only records the
 * new state and returns: what it sends, it sends off the hook's path.
 */
export interface ProgressSink {
  turnStarted(ref: string): void;
  toolStarted(ref: string, tool: string, input: unknown): void;
  toolFinished(ref: string, tool: string, input: unknown): void;
  turnEnded(ref: string): void;
}

const noProgress: ProgressSink = {
  turnStarted: () => undefined,
  toolStarted: () => undefined,
  toolFinished: () => undefined,
  turnEnded: () => undefined,
};

/**
 * Routes a session calls from inside its pane: `the-loop post` and Claude Code's hooks. The token
 * decides who is speaking; a body can never name another session.
 */
export function sessionRoutes(options: {
  readonly directory: SessionDirectory;
  readonly readiness: ReadinessTracker;
  readonly confirmations: ConfirmationTracker;
  readonly replies: ReplyRouter;
  readonly progress?: ProgressSink;
}): Route[] {
  const { directory, readiness, confirmations, replies } = options;
  const progress = options.progress ?? noProgress;
  const toolName = (payload: Record<string, unknown>): string =>
    typeof payload['tool_name'] === 'string' ? payload['tool_name'] : 'tool';

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

  const hookHandlers: Record<
    (typeof hookEvents)[number],
    (
      session: { ref: string; tmuxName: string },
      payload: Record<string, unknown>,
    ) => Promise<unknown>
  > = {
    SessionStart: async (session) => {
      readiness.ready(session.tmuxName);
      return { accepted: true };
    },
    UserPromptSubmit: async (session, payload) => {
      const prompt = typeof payload['prompt'] === 'string' ? payload['prompt'] : '';
      progress.turnStarted(session.ref);
      return { accepted: true, confirmed: confirmations.report(session.tmuxName, prompt) };
    },
    Stop: async (session, payload) => {
      const text =
        typeof payload['last_assistant_message'] === 'string' &&
        payload['last_assistant_message'].trim()
          ? payload['last_assistant_message']
          : await readLastAssistantMessage(payload['transcript_path']);
      // Posting may wait on Slack's pace; the hook must return at once, so it goes on in the background.
      if (text?.trim()) void replies.post(session.ref, text, 'reply');
      progress.turnEnded(session.ref);
      return { accepted: true };
    },
    PreToolUse: async (session, payload) => {
      progress.toolStarted(session.ref, toolName(payload), payload['tool_input']);
      return { accepted: true };
    },
    PostToolUse: async (session, payload) => {
      progress.toolFinished(session.ref, toolName(payload), payload['tool_input']);
      return { accepted: true };
    },
    Notification: async (session, payload) => {
      const message =
        typeof payload['message'] === 'string' ? payload['message'] : 'it needs your input';
      const notice =
        `⏳ The agent is waiting for you: ${message.slice(0, 300)}\n` +
        `Answer here, or attach with \`tmux attach -t '=${session.tmuxName}'\`.`;
      void replies.post(session.ref, notice, 'notice');
      return { accepted: true };
    },
  };

  return [
    {
      method: 'POST',
      path: '/api/v1/post',
      operationId: 'postAsSession',
      auth: 'session',
      handler: async ({ body, sessionToken }) => {
        const session = await caller(sessionToken);
        const fields = objectBody(body);
        const files = await readOutgoingFiles(fields['files']);
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
      handler: async ({ params, body, sessionToken }) => {
        const event = params['event'] ?? '';
        if (!isHookEvent(event)) {
          throw new LoopError(
            'bad_request',
            `unknown hook event \`${event}\`; expected one of ${hookEvents.join(', ')}`,
          );
        }
        const session = await caller(sessionToken);
        return { status: 200, body: await hookHandlers[event](session, objectBody(body)) };
      },
    },
  ];
}

function isHookEvent(value: string): value is (typeof hookEvents)[number] {
  return (hookEvents as readonly string[]).includes(value);
}
