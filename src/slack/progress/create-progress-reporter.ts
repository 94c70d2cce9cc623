import { readLive, type Live } from '../../config/live-config.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import type { ProgressSink } from '../../hooks/hook-table.js';
import type { Config } from '../../config/types.js';
import { asLoopError } from '../../errors.js';
import type { Logger } from '../../log/create-logger.js';
import { callSlack, threadSay } from '../call-slack.js';
import type { ThreadBindings } from '../thread-bindings.js';
import { describeToolCall } from './describe-tool-call.js';
import { formatProgressLine, formatProgressSummary } from './format-progress.js';
import type { OpenStatusMessages } from './create-open-status-messages.js';
import { planProgressEdit } from './plan-progress-edit.js';

/** Slack's chat.update allows about one edit a second per message; one in three keeps it calm. */
export const progressEditIntervalMs = 3_000;

interface Turn {
  readonly startedAt: number;
  readonly tools: string[];
  /** The latest call, as the status line shows it. */
  call: string;
  message: { readonly channel: string; readonly ts: string } | undefined;
  posting: boolean;
  /** No thread is bound to the ref: nothing to post this turn. */
  unbound: boolean;
  lastSentAt: number | undefined;
  editDue: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Every Slack call about this turn's message, one after another. */
  chain: Promise<void>;
}

/**
 * One status message per turn in the session's thread (docs/design.md §15), fed by the tool hooks. The
 * hooks only change state here and return; every Slack call runs on the turn's own queue, apart
 * from replies, so a slow or rate-limited edit never delays a delivery or an agent's answer. An
 * in-between edit that fails (a 429) is dropped — the next state replaces it anyway — while the
 * final summary or delete is retried like a reply.
 */
export function createProgressReporter(options: {
  readonly client: WebClient;
  readonly bindings: ThreadBindings;
  /** Read at each turn's end, so a config reload applies to the next one. */
  readonly mode: Live<Config['slack']['progress']>;
  readonly logger: Logger;
  readonly intervalMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<unknown>;
  /** Where open status messages are recorded, for a restarted serve to close. */
  readonly open?: OpenStatusMessages;
}): ProgressSink {
  const { client, bindings, logger } = options;
  const intervalMs = options.intervalMs ?? progressEditIntervalMs;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const turns = new Map<string, Turn>();

  const warn = (event: string, call: string, error: unknown): void => {
    const failure = asLoopError(error);
    logger.warn({ event, call, code: failure.code, reason: failure.message }, 'status not updated');
  };
  const enqueue = (turn: Turn, job: () => Promise<void>): void => {
    turn.chain = turn.chain.then(job).catch((error: unknown) => {
      warn('slack.progress_failed', 'queue', error);
    });
  };
  /** Rewrites the status message; `maxAttempts` as callSlack's (its default when not given). */
  const rewrite = (
    message: { readonly channel: string; readonly ts: string },
    text: string,
    maxAttempts?: number,
  ): Promise<unknown> =>
    callSlack(
      'chat.update',
      () => client.chat.update({ channel: message.channel, ts: message.ts, text }),
      { logger, sleep, ...(maxAttempts ? { maxAttempts } : {}) },
    );
  const newTurn = (): Turn => ({
    startedAt: now(),
    tools: [],
    call: '',
    message: undefined,
    posting: false,
    unbound: false,
    lastSentAt: undefined,
    editDue: false,
    timer: undefined,
    chain: Promise.resolve(),
  });

  const post = async (ref: string, turn: Turn): Promise<void> => {
    try {
      const binding = await bindings.forRef(ref);
      if (!binding) {
        turn.unbound = true;
        return;
      }
      turn.lastSentAt = now();
      const ts = await threadSay(client, binding, { logger, maxAttempts: 2, sleep })({
        text: formatProgressLine(turn.call, now() - turn.startedAt),
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: 'the_loop_progress', event_payload: {} },
      });
      if (ts !== undefined) {
        turn.message = { channel: binding.channel, ts };
        await options.open?.opened(turn.message);
      }
    } catch (error) {
      warn('slack.progress_dropped', 'chat.postMessage', error);
    } finally {
      turn.posting = false;
      if (turn.lastSentAt !== undefined) turn.lastSentAt = now();
    }
  };

  /** Waits out the pace from the end of the previous call, which is when Slack last saw one. */
  const keepPace = async (turn: Turn): Promise<void> => {
    const wait = (turn.lastSentAt ?? -Infinity) + intervalMs - now();
    if (wait > 0) await sleep(wait);
  };

  const edit = async (turn: Turn): Promise<void> => {
    await keepPace(turn);
    // Still due until here, so states that came during the wait fold into this edit.
    turn.editDue = false;
    const message = turn.message;
    if (!message) return;
    turn.lastSentAt = now();
    try {
      // One attempt: a newer state is on its way, so a rate-limited edit is simply dropped.
      await rewrite(message, formatProgressLine(turn.call, now() - turn.startedAt), 1);
    } catch (error) {
      warn('slack.progress_dropped', 'chat.update', error);
    } finally {
      turn.lastSentAt = now();
    }
  };

  const changed = (ref: string, turn: Turn): void => {
    if (turn.unbound) return;
    if (!turn.message && !turn.posting) {
      turn.posting = true;
      enqueue(turn, () => post(ref, turn));
      return;
    }
    const plan = planProgressEdit({
      now: now(),
      lastSentAt: turn.lastSentAt,
      intervalMs,
      editDue: turn.editDue,
    });
    if (plan.kind === 'coalesce') return;
    turn.editDue = true;
    if (plan.kind === 'send') {
      enqueue(turn, () => edit(turn));
      return;
    }
    turn.timer = setTimeout(() => {
      turn.timer = undefined;
      enqueue(turn, () => edit(turn));
    }, plan.ms);
  };

  const finish = (turn: Turn): void => {
    clearTimeout(turn.timer);
    turn.timer = undefined;
    turn.editDue = false;
    const endedAt = now();
    enqueue(turn, async () => {
      const message = turn.message;
      if (!message) return;
      // The last word is an edit too: it keeps the pace, then is retried until it lands.
      await keepPace(turn);
      const mode = readLive(options.mode);
      try {
        if (mode === 'delete') {
          await callSlack(
            'chat.delete',
            () => client.chat.delete({ channel: message.channel, ts: message.ts }),
            { logger, sleep },
          );
        } else {
          await rewrite(message, formatProgressSummary(turn.tools, endedAt - turn.startedAt));
        }
      } catch (error) {
        warn('slack.progress_failed', mode === 'delete' ? 'chat.delete' : 'chat.update', error);
      }
      await options.open?.closed(message);
    });
  };

  const end = (ref: string): void => {
    const turn = turns.get(ref);
    if (!turn) return;
    turns.delete(ref);
    finish(turn);
  };

  // `off` is read when a turn would begin: a turn already shown runs to its end.
  const off = (): boolean => readLive(options.mode) === 'off';
  return {
    turnStarted(ref) {
      // A turn whose Stop never came (the agent was interrupted) ends where the next one starts.
      end(ref);
      if (!off()) turns.set(ref, newTurn());
    },
    toolStarted(ref, tool, input) {
      let turn = turns.get(ref);
      if (!turn && off()) return;
      if (!turn) {
        // A prompt taken without UserPromptSubmit (injected into a running turn): start here.
        turn = newTurn();
        turns.set(ref, turn);
      }
      turn.tools.push(tool);
      turn.call = describeToolCall(tool, input);
      changed(ref, turn);
    },
    toolFinished(ref, tool, input) {
      const turn = turns.get(ref);
      if (!turn) return;
      if (turn.call === '') turn.call = describeToolCall(tool, input);
      changed(ref, turn);
    },
    turnEnded: end,
  };
}
