/** One message of the burst: which session it was for and its place in that session's sequence. */
export interface BurstMessage {
  readonly session: string;
  readonly seq: number;
}

export interface BurstVerdict {
  /** Sent but never recorded by an agent. */
  readonly lost: number;
  /** Recorded more than once. */
  readonly duplicates: number;
  /** Recorded but never sent (a garbled or merged paste). */
  readonly unexpected: number;
  /** Every session's messages were recorded in the order they were sent. */
  readonly orderOk: boolean;
}

/** The text of message `seq` for `session`; `parseBurstText` reads it back. */
export function burstText(message: BurstMessage): string {
  return `burst ${message.session} ${message.seq}`;
}

export function parseBurstText(text: string): BurstMessage | undefined {
  const match = /^burst ([a-z0-9-]+) (\d+)$/.exec(text);
  return match?.[1] && match[2] ? { session: match[1], seq: Number(match[2]) } : undefined;
}

/**
 * Compares what was sent with what the agents recorded, in file order (one agent per session
 * appends its own records in the order it received them, so file order is per-session order).
 */
export function checkBurst(
  sent: readonly BurstMessage[],
  recorded: readonly string[],
): BurstVerdict {
  const expected = new Set(sent.map(burstText));
  const seen = new Set<string>();
  const lastSeq = new Map<string, number>();
  let duplicates = 0;
  let unexpected = 0;
  let orderOk = true;
  for (const text of recorded) {
    const message = parseBurstText(text);
    if (!message || !expected.has(text)) {
      unexpected += 1;
      continue;
    }
    if (seen.has(text)) {
      duplicates += 1;
      continue;
    }
    seen.add(text);
    if ((lastSeq.get(message.session) ?? -1) >= message.seq) orderOk = false;
    lastSeq.set(message.session, message.seq);
  }
  return { lost: expected.size - seen.size, duplicates, unexpected, orderOk };
}
