import type { EventSink } from '../state/event-log.js';
import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import type { OutgoingFile } from './outgoing-file.js';

export type ReplyKind = 'reply' | 'notice';

/** Where a reply landed: the Slack channel and thread, or the issue/PR ref. */
export interface ReplyTarget {
  readonly surface: 'slack' | 'github';
  readonly location: string;
}

/** Somewhere an agent's words can go for a ref: its Slack thread, its GitHub issue. */
export interface ReplySink {
  readonly surface: ReplyTarget['surface'];
  /** Whether this sink has a destination for the ref (a bound thread, a work item). */
  accepts(ref: string): Promise<boolean>;
  /** `files`: attached with `the-loop post --file` (docs/design.md §15); `text` may then be "". */
  post(
    ref: string,
    text: string,
    kind: ReplyKind,
    files?: readonly OutgoingFile[],
  ): Promise<ReplyTarget>;
}

/** A place that serves the ref but did not take the reply, and why (the sink's LoopError). */
export interface ReplyFailure {
  readonly surface: ReplyTarget['surface'];
  readonly code: string;
  readonly reason: string;
}

export interface ReplyOutcome {
  readonly targets: ReplyTarget[];
  /** Empty when every place that serves the ref took the reply. */
  readonly failed: ReplyFailure[];
}

export interface ReplyRouter {
  /** Posts to every sink that serves the ref; returns where it landed and where it did not. */
  post(
    ref: string,
    text: string,
    kind: ReplyKind,
    files?: readonly OutgoingFile[],
  ): Promise<ReplyOutcome>;
}

/**
 * Sends what an agent says to the people its session works for (docs/design.md §8). Each post is one
 * `agent.posted` event (never the text); a failing sink is reported, not fatal to the others, and
 * the caller learns of it: `the-loop post` must not say "posted" when nobody got the words.
 */
export function createReplyRouter(options: {
  readonly sinks: readonly ReplySink[];
  readonly events: EventSink;
  readonly logger: Logger;
}): ReplyRouter {
  return {
    async post(ref, text, kind, files = []) {
      const targets: ReplyTarget[] = [];
      const failed: ReplyFailure[] = [];
      for (const sink of options.sinks) {
        try {
          if (!(await sink.accepts(ref))) continue;
          targets.push(await sink.post(ref, text, kind, files));
        } catch (error) {
          const failure = asLoopError(error);
          failed.push({ surface: sink.surface, code: failure.code, reason: failure.message });
          options.logger.warn(
            {
              event: 'agent.post_failed',
              ref,
              surface: sink.surface,
              code: failure.code,
              reason: failure.message,
            },
            'agent reply not posted',
          );
        }
      }
      options.events.record('agent.posted', {
        ref,
        kind,
        bytes: Buffer.byteLength(text),
        ...(files.length ? { files: files.length } : {}),
        postedTo: targets.map((target) => target.surface),
        ...(failed.length ? { failed: failed.map((failure) => failure.surface) } : {}),
      });
      return { targets, failed };
    },
  };
}
