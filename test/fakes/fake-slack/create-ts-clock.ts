/**
 * Slack message timestamps (`1700000000.000100`): seconds, a dot, six digits of microseconds. They
 * double as message ids, so every one this fake hands out is strictly greater than the last — whether
 * the bot posted it (`chat.postMessage`) or a test made it for a user's message.
 */
export function createTsClock(startSeconds = 1_700_000_000): () => string {
  let micros = startSeconds * 1_000_000;
  return () => {
    micros += 100;
    const seconds = Math.floor(micros / 1_000_000);
    const fraction = String(micros % 1_000_000).padStart(6, '0');
    return `${seconds}.${fraction}`;
  };
}
