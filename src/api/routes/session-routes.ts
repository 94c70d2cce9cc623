import type { ConfirmationTracker } from '../../delivery/confirmation-tracker.js';
import type { AgentStates } from '../../delivery/agent-states.js';
import { LoopError } from '../../errors.js';
import { readLastAssistantMessage } from '../../harness/read-last-assistant-message.js';
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
  'PermissionRequest',
] as const;

/** The one hook that blocks (DESIGN §14): it answers with the JSON Claude Code reads on stdout. */
export type PermissionHook = (
  session: { ref: string; tmuxName: string },
  payload: Record<string, unknown>,
  signal: AbortSignal | undefined,
) => Promise<Record<string, unknown>>;

/**
 * Routes a session calls from inside its pane: `the-loop post` and Claude Code's hooks. The token
 * decides who is speaking; a body can never name another session.
 */
export function sessionRoutes(options: {
  readonly directory: SessionDirectory;
  readonly readiness: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly replies: ReplyRouter;
  /** Without it a PermissionRequest gets no decision, and Claude Code asks in the terminal. */
  readonly permissionHook?: PermissionHook;
  /** True while a permission request of that session is open: its own notice says it already. */
  readonly permissionPending?: (ref: string) => boolean;
}): Route[] {
  const { directory, readiness, confirmations, replies } = options;

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
      signal: AbortSignal | undefined,
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
      if (
        payload['notification_type'] === 'permission_prompt' &&
        options.permissionPending?.(session.ref) === true
      ) {
        return { accepted: true, posted: false };
      }
      const message =
        typeof payload['message'] === 'string' ? payload['message'] : 'it needs your input';
      const notice =
        `⏳ The agent is waiting for you: ${message.slice(0, 300)}\n` +
        `Answer here, or attach with \`tmux attach -t '=${session.tmuxName}'\`.`;
      void replies.post(session.ref, notice, 'notice');
      return { accepted: true };
    },
    PermissionRequest: async (session, payload, signal) =>
      options.permissionHook ? options.permissionHook(session, payload, signal) : {},
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
      handler: async ({ params, body, sessionToken, signal }) => {
        const event = params['event'] ?? '';
        if (!isHookEvent(event)) {
          throw new LoopError(
            'bad_request',
            `unknown hook event \`${event}\`; expected one of ${hookEvents.join(', ')}`,
          );
        }
        const session = await caller(sessionToken);
        return { status: 200, body: await hookHandlers[event](session, objectBody(body), signal) };
      },
    },
  ];
}

function isHookEvent(value: string): value is (typeof hookEvents)[number] {
  return (hookEvents as readonly string[]).includes(value);
}
