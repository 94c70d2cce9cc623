import type { ConfirmationTracker } from '../../delivery/confirmation-tracker.js';
import type { AgentStates } from '../../delivery/agent-states.js';
import { LoopError } from '../../errors.js';
import { claudeHookAnswer } from '../../harness/claude-hook-answer.js';
import { readLastAssistantMessage } from '../../harness/read-last-assistant-message.js';
import { notificationNotice } from '../../replies/notification-notice.js';
import type { ReplyRouter } from '../../replies/reply-router.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';

/** Who a session token belongs to; the only way a session's words get attributed to it. */
export interface SessionDirectory {
  sessionForToken(token: string): Promise<{ ref: string; tmuxName: string } | undefined>;
}

export const hookEvents = ['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification'] as const;

/**
 * Routes a session calls from inside its pane: `the-loop post` and Claude Code's hooks. The token
 * decides who is speaking; a body can never name another session.
 */
export function sessionRoutes(options: {
  readonly directory: SessionDirectory;
  readonly readiness: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly replies: ReplyRouter;
  /** Whether a §14 permission request is open for the session (ref); none are by default. */
  readonly permissionRequestOpen?: (ref: string) => boolean;
  /** `tmux.socket`, for the attach remedy in notices. */
  readonly tmuxSocket?: string;
}): Route[] {
  const { directory, readiness, confirmations, replies } = options;
  const permissionRequestOpen = options.permissionRequestOpen ?? (() => false);

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
      readiness.signal(session.tmuxName, 'ready', session.ref);
      return { accepted: true };
    },
    UserPromptSubmit: async (session, payload) => {
      const prompt = typeof payload['prompt'] === 'string' ? payload['prompt'] : '';
      readiness.signal(session.tmuxName, 'prompt', session.ref);
      return { accepted: true, confirmed: confirmations.report(session.tmuxName, prompt) > 0 };
    },
    Stop: async (session, payload) => {
      readiness.signal(session.tmuxName, 'stop', session.ref);
      const text =
        typeof payload['last_assistant_message'] === 'string' &&
        payload['last_assistant_message'].trim()
          ? payload['last_assistant_message']
          : await readLastAssistantMessage(payload['transcript_path']);
      // Posting may wait on Slack's pace; the hook must return at once, so it goes on in the background.
      if (text?.trim()) void replies.post(session.ref, text, 'reply');
      return { accepted: true };
    },
    Notification: async (session, payload) => {
      const notice = notificationNotice(payload, {
        tmuxName: session.tmuxName,
        permissionRequestOpen: permissionRequestOpen(session.ref),
        ...(options.tmuxSocket ? { tmuxSocket: options.tmuxSocket } : {}),
      });
      if (notice !== undefined) void replies.post(session.ref, notice, 'notice');
      return { accepted: true, posted: notice !== undefined };
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
        const text = objectBody(body)['text'];
        if (typeof text !== 'string' || text.trim() === '') {
          throw new LoopError(
            'empty_message',
            'nothing to post; pass the text as an argument or on stdin',
          );
        }
        return { status: 200, body: await replies.post(session.ref, text, 'reply') };
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
        // The hook prints this body for Claude Code: only Claude Code's own fields go back.
        const answer = claudeHookAnswer(await hookHandlers[event](session, objectBody(body)));
        return answer ? { status: 200, body: answer } : { status: 204, body: undefined };
      },
    },
  ];
}

function isHookEvent(value: string): value is (typeof hookEvents)[number] {
  return (hookEvents as readonly string[]).includes(value);
}
