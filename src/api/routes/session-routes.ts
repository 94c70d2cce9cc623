import { setTimeout as delay } from 'node:timers/promises';
import type { ConfirmationTracker } from '../../delivery/confirmation-tracker.js';
import type { AgentStates } from '../../delivery/agent-states.js';
import { turnHook } from '../../delivery/agent-turn.js';
import { asLoopError, LoopError } from '../../errors.js';
import { claudeHookAnswer } from '../../harness/claude-hook-answer.js';
import { readInjectedPrompts } from '../../harness/read-injected-prompts.js';
import { readLastAssistantMessage } from '../../harness/read-last-assistant-message.js';
import type { Logger } from '../../log/create-logger.js';
import { notificationNotice } from '../../replies/notification-notice.js';
import { decodeOutgoingFiles, postBodyLimit } from '../../replies/decode-outgoing-files.js';
import type { ReplyRouter } from '../../replies/reply-router.js';
import type { Route } from '../route.js';
import { objectBody } from './standing-routes.js';
import type { PermissionHook } from '../../permissions/create-permission-hook.js';

/** Who a session token belongs to; the only way a session's words get attributed to it. */
export interface SessionDirectory {
  sessionForToken(token: string): Promise<{ ref: string; tmuxName: string } | undefined>;
}

/** When to read a Stop's transcript for injected messages: at once, then a little later. */
const injectedRereadsMs = [0, 200, 400, 800];

export const hookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  'PermissionRequest',
  'PreToolUse',
  'PostToolUse',
] as const;

/**
 * Where a turn's progress goes (the Slack status message, docs/design.md §15). Each call only records the
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
  readonly readiness: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly replies: ReplyRouter;
  readonly logger: Logger;
  /** Whether a §14 permission request is open for the session (ref); none are by default. */
  readonly permissionRequestOpen?: (ref: string) => boolean;
  /** `tmux.socket`, for the attach remedy in notices. */
  readonly tmuxSocket?: string;
  /** Without it a PermissionRequest gets no decision, and Claude Code asks in the terminal. */
  readonly permissionHook?: PermissionHook;
  /**
   * Ends a session's open requests when its turn ends: Claude Code keeps the hook waiting even
   * after someone answered the dialog in the terminal, so a Stop is how that answer shows.
   */
  readonly endPermissionRequests?: (ref: string) => void;
  readonly progress?: ProgressSink;
  /** Claude Code's projects folder: the only place a hook's `transcript_path` is read from. */
  readonly projectsDir: string;
  /** The largest post: its files together, in bytes (`slack.files.maxBytes`). */
  readonly maxPostFileBytes: number;
  /** Which of the-loop's own secrets a file holds, if any: such a file is never posted. */
  readonly secretIn?: (bytes: Buffer) => string | undefined;
}): Route[] {
  const { directory, readiness, confirmations, replies, logger } = options;
  const permissionRequestOpen = options.permissionRequestOpen ?? (() => false);

  /** After a Stop hook has been answered: find the turn's last words and post them. */
  const replyToStop = async (ref: string, payload: Record<string, unknown>): Promise<void> => {
    const given = payload['last_assistant_message'];
    let text: string | undefined;
    try {
      text =
        typeof given === 'string' && given.trim()
          ? given
          : await readLastAssistantMessage(payload['transcript_path'], options.projectsDir);
    } catch (error) {
      const failure = asLoopError(error);
      logger.warn(
        { event: 'hook.transcript_unreadable', ref, code: failure.code, reason: failure.message },
        'no reply posted: the Stop hook named a transcript that cannot be read',
      );
      return;
    }
    if (text?.trim()) await replies.post(ref, text, 'reply');
  };
  const progress = options.progress ?? noProgress;
  const toolName = (payload: Record<string, unknown>): string =>
    typeof payload['tool_name'] === 'string' ? payload['tool_name'] : 'tool';

  /** A delivery whose tag the turn's transcript shows injected is confirmed (docs/design.md §4 step 8). */
  const confirmInjected = async (
    session: { ref: string; tmuxName: string },
    transcriptPath: unknown,
  ): Promise<void> => {
    try {
      // Claude Code writes its transcript behind the hooks: the attachment can land just after
      // the Stop, so the end is read again a few times while a delivery is still pending.
      for (const wait of injectedRereadsMs) {
        if (wait > 0) await delay(wait);
        for (const prompt of await readInjectedPrompts(transcriptPath, options.projectsDir)) {
          confirmations.report(session.tmuxName, prompt);
        }
        if (confirmations.pendingTags(session.tmuxName).size === 0) return;
      }
    } catch (error) {
      logger.warn(
        { event: 'hook.transcript_unreadable', ref: session.ref, code: asLoopError(error).code },
        'injected messages not looked for: the Stop hook named a transcript that cannot be read',
      );
    }
  };

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
      progress.turnStarted(session.ref);
      readiness.hook(session.tmuxName, turnHook('UserPromptSubmit', payload), session.ref);
      return { accepted: true, confirmed: confirmations.report(session.tmuxName, prompt) > 0 };
    },
    Stop: async (session, payload) => {
      options.endPermissionRequests?.(session.ref);
      readiness.hook(session.tmuxName, turnHook('Stop', payload), session.ref);
      // Messages typed into this turn that it took in as a system message (no UserPromptSubmit).
      if (confirmations.pendingTags(session.tmuxName).size > 0) {
        void confirmInjected(session, payload['transcript_path']);
      }
      // The hook must return at once: reading the transcript (a path the payload chose) and
      // posting (which may wait on Slack's pace) both happen after the answer.
      void replyToStop(session.ref, payload);
      progress.turnEnded(session.ref);
      return { accepted: true };
    },
    PreToolUse: async (session, payload) => {
      readiness.hook(session.tmuxName, turnHook('PreToolUse', payload), session.ref);
      progress.toolStarted(session.ref, toolName(payload), payload['tool_input']);
      return { accepted: true };
    },
    PostToolUse: async (session, payload) => {
      readiness.hook(session.tmuxName, turnHook('PostToolUse', payload), session.ref);
      progress.toolFinished(session.ref, toolName(payload), payload['tool_input']);
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
    PermissionRequest: async (session, payload, signal) => {
      if (!options.permissionHook) return {};
      // `waiting` (docs/design.md §13) holds deliveries: a paste now would land in the dialog.
      readiness.signal(session.tmuxName, 'permission', session.ref);
      try {
        return await options.permissionHook(session, payload, signal);
      } finally {
        if (!permissionRequestOpen(session.ref)) {
          readiness.signal(session.tmuxName, 'permission-ended', session.ref);
        }
      }
    },
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
        // The hook prints this body for Claude Code: only Claude Code's own fields go back.
        const answer = claudeHookAnswer(
          await hookHandlers[event](session, objectBody(body), signal),
        );
        return answer ? { status: 200, body: answer } : { status: 204, body: undefined };
      },
    },
  ];
}

function isHookEvent(value: string): value is (typeof hookEvents)[number] {
  return (hookEvents as readonly string[]).includes(value);
}
