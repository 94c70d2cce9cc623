import type { RawData } from 'ws';

export interface SocketAck {
  readonly envelopeId: string;
  readonly payload?: unknown;
  readonly sentAt: number;
  readonly ackedAt: number;
}

interface Waiter {
  readonly resolve: (ack: SocketAck) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Matches the `{ envelope_id, payload? }` acks a client sends back to the envelopes sent to it. An
 * ack that comes after its deadline is still recorded, so a test can see that it was late.
 */
export function createAckTracker(now: () => number) {
  const sentAt = new Map<string, number>();
  const waiters = new Map<string, Waiter>();
  const acks: SocketAck[] = [];

  return {
    acks: acks as readonly SocketAck[],
    /** Call as the envelope goes out; the promise settles with its ack or after `timeoutMs`. */
    expect(envelopeId: string, timeoutMs: number): Promise<SocketAck> {
      sentAt.set(envelopeId, now());
      return new Promise<SocketAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(envelopeId);
          reject(
            new Error(
              `fake Slack: envelope ${envelopeId} was not acknowledged within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.set(envelopeId, { resolve, reject, timer });
      });
    },
    receive(data: RawData): void {
      const message = parseObject(rawText(data));
      const envelopeId = message?.envelope_id;
      const sent = typeof envelopeId === 'string' ? sentAt.get(envelopeId) : undefined;
      if (typeof envelopeId !== 'string' || sent === undefined) return;
      const payload = message?.payload;
      const ack = {
        envelopeId,
        ...(payload === undefined ? {} : { payload }),
        sentAt: sent,
        ackedAt: now(),
      };
      acks.push(ack);
      const waiter = waiters.get(envelopeId);
      if (waiter === undefined) return;
      waiters.delete(envelopeId);
      clearTimeout(waiter.timer);
      waiter.resolve(ack);
    },
    close(): void {
      for (const [envelopeId, waiter] of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(
          new Error(`fake Slack stopped before envelope ${envelopeId} was acknowledged`),
        );
      }
      waiters.clear();
    },
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
