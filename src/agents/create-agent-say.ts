import type { SayAnswer } from '../delivery/first-answer.js';
import type { Origin } from '../delivery/frame-message.js';
import { LoopError } from '../errors.js';
import { parseStandingRef, standingRef } from '../refs.js';
import type { EventLog } from '../state/event-log.js';
import { messageWindowMs, type MessageLimiter } from './message-window.js';

/** The standing service's say, as this module needs it. */
export interface SayTarget {
  say(
    name: string,
    text: string,
    actor: string,
    options?: { readonly signal?: AbortSignal; readonly origin?: Origin },
  ): Promise<SayAnswer>;
}

export type AgentSay = (
  senderRef: string,
  name: string,
  text: string,
  options?: { readonly signal?: AbortSignal },
) => Promise<SayAnswer>;

/**
 * One agent's message to another session (docs/design.md §20): framed `agent:<sender>`, never
 * to itself, at most `agents.maxMessagesPerMinute` per sender in any sliding minute (a refusal
 * gives its place back), and recorded as `agent.message {from, to, deliveryId}`. The sender
 * comes from its session token, never from the request body.
 */
export function createAgentSay(options: {
  readonly standing: SayTarget;
  readonly limiter: MessageLimiter;
  readonly limit: () => number;
  readonly events: Pick<EventLog, 'record'>;
}): AgentSay {
  const { standing, limiter, events } = options;
  return async (senderRef, name, text, sayOptions = {}) => {
    const to = standingRef(name);
    const sender = parseStandingRef(senderRef) ?? senderRef;
    if (senderRef === to) {
      throw new LoopError(
        'self_message',
        `\`${name}\` is this session itself: say speaks to another session; to answer your ` +
          'people, use post (`the-loop post`)',
      );
    }
    const place = limiter.reserve(senderRef);
    if (!place.allowed) {
      const seconds = Math.ceil(place.retryAfterMs / 1000);
      throw new LoopError(
        'rate_limited',
        `this session has sent ${options.limit()} messages to other sessions in the last ` +
          `${messageWindowMs / 1000} s (agents.maxMessagesPerMinute): wait ${seconds} s, and ` +
          'do not answer an agent that only answers you',
        { retryAfterSeconds: seconds },
      );
    }
    const origin: Origin = { surface: 'agent', actor: sender };
    let answer: SayAnswer;
    try {
      answer = await standing.say(name, text, sender, {
        origin,
        ...(sayOptions.signal ? { signal: sayOptions.signal } : {}),
      });
    } catch (error) {
      place.release();
      throw error;
    }
    events.record('agent.message', { from: senderRef, to, deliveryId: answer.deliveryId });
    return answer;
  };
}
