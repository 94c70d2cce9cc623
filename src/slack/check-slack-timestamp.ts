/** Slack's own window: a signed request older or newer than this is refused. */
export const slackTimestampWindowSeconds = 5 * 60;

/**
 * Whether a request's `X-Slack-Request-Timestamp` falls within the window around now. Bolt refuses
 * stale requests but not ones stamped in the future; a signed request captured with a future stamp
 * could otherwise be replayed until that time comes.
 */
export function isSlackTimestampCurrent(header: string | undefined, nowMs: number): boolean {
  if (header === undefined || !/^\d{1,12}$/.test(header)) return false;
  return Math.abs(nowMs / 1000 - Number(header)) <= slackTimestampWindowSeconds;
}
