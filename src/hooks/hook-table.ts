import { setTimeout as delay } from 'node:timers/promises';
import type { AgentStates } from '../delivery/agent-states.js';
import { turnHook } from '../delivery/agent-turn.js';
import type { ConfirmationTracker } from '../delivery/confirmation-tracker.js';
import { asLoopError } from '../errors.js';
import { readInjectedPrompts } from '../harness/read-injected-prompts.js';
import { readLastAssistantMessage } from '../harness/read-last-assistant-message.js';
import type { Logger } from '../log/create-logger.js';
import type { PermissionRegistry } from '../permissions/create-permission-registry.js';
import { notificationNotice } from '../replies/notification-notice.js';
import type { ReplyRouter } from '../replies/reply-router.js';
import { claudeHookAnswer } from './hook-answer.js';
import { createPermissionHook } from './permission-hook.js';

/** The hook events serve answers (`POST /api/v1/hooks/{event}`, docs/design.md §8). */
export const hookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  'PermissionRequest',
  'PreToolUse',
  'PostToolUse',
] as const;

export type HookEvent = (typeof hookEvents)[number];

export function isHookEvent(value: string): value is HookEvent {
  return (hookEvents as readonly string[]).includes(value);
}

/** The session a hook came from, as its token names it. */
export interface HookSession {
  readonly ref: string;
  readonly tmuxName: string;
}

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

/** When to read a Stop's transcript for injected messages: at once, then a little later. */
const injectedRereadsMs = [0, 200, 400, 800];

export interface HookTableOptions {
  readonly states: AgentStates;
  readonly confirmations: ConfirmationTracker;
  readonly replies: ReplyRouter;
  readonly logger: Logger;
  /**
   * The permission feature's requests (docs/design.md §14). Without it a PermissionRequest gets no
   * decision, and Claude Code asks in the terminal; no session has a request open.
   */
  readonly permissions?: Pick<
    PermissionRegistry,
    'open' | 'expire' | 'expireRef' | 'hasOpenRequest'
  >;
  /** `tmux.socket`, for the attach remedy in notices. */
  readonly tmuxSocket?: string;
  readonly progress?: ProgressSink;
  /** Claude Code's projects folder: the only place a hook's `transcript_path` is read from. */
  readonly projectsDir: string;
}

/**
 * Answers one hook: the answer Claude Code reads, or undefined for none (HTTP 204, the hook
 * prints nothing).
 */
export type HookTable = (
  event: HookEvent,
  session: HookSession,
  payload: Record<string, unknown>,
  signal: AbortSignal | undefined,
) => Promise<Record<string, unknown> | undefined>;

/** What each of Claude Code's hooks does in serve: the one table of them (docs/design.md §8). */
export function createHookTable(options: HookTableOptions): HookTable {
  const { states, confirmations, replies, logger, permissions } = options;
  const permissionRequestOpen = (ref: string): boolean => permissions?.hasOpenRequest(ref) ?? false;
  const permissionHook = permissions ? createPermissionHook(permissions) : undefined;

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
  const confirmInjected = async (session: HookSession, transcriptPath: unknown): Promise<void> => {
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

  const handlers: Record<
    HookEvent,
    (
      session: HookSession,
      payload: Record<string, unknown>,
      signal: AbortSignal | undefined,
    ) => Promise<unknown>
  > = {
    SessionStart: async (session) => {
      states.signal(session.tmuxName, 'ready', session.ref);
      return { accepted: true };
    },
    UserPromptSubmit: async (session, payload) => {
      const prompt = typeof payload['prompt'] === 'string' ? payload['prompt'] : '';
      progress.turnStarted(session.ref);
      states.hook(session.tmuxName, turnHook('UserPromptSubmit', payload), session.ref);
      return { accepted: true, confirmed: confirmations.report(session.tmuxName, prompt) > 0 };
    },
    Stop: async (session, payload) => {
      // Claude Code keeps a PermissionRequest hook waiting even after someone answered the
      // dialog in the terminal, so a Stop is how that answer shows: the turn's requests end.
      permissions?.expireRef(session.ref, 'terminal');
      states.hook(session.tmuxName, turnHook('Stop', payload), session.ref);
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
      states.hook(session.tmuxName, turnHook('PreToolUse', payload), session.ref);
      progress.toolStarted(session.ref, toolName(payload), payload['tool_input']);
      return { accepted: true };
    },
    PostToolUse: async (session, payload) => {
      states.hook(session.tmuxName, turnHook('PostToolUse', payload), session.ref);
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
      if (!permissionHook) return {};
      // `waiting` (docs/design.md §13) holds deliveries: a paste now would land in the dialog.
      states.signal(session.tmuxName, 'permission', session.ref);
      try {
        return await permissionHook(session, payload, signal);
      } finally {
        if (!permissionRequestOpen(session.ref)) {
          states.signal(session.tmuxName, 'permission-ended', session.ref);
        }
      }
    },
  };

  // The hook prints this answer for Claude Code: only Claude Code's own fields go back.
  return async (event, session, payload, signal) =>
    claudeHookAnswer(await handlers[event](session, payload, signal));
}
