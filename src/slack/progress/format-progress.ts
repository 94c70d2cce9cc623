import { neutralizeSlackText } from './neutralize-slack-text.js';

/** `0:42`, `12:05`, `1:02:03`. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

/** The status line while a turn runs: `⏳ working · Bash: npm test · 0:42`. */
export function formatProgressLine(call: string, elapsedMs: number): string {
  return `⏳ working · ${call} · ${formatElapsed(elapsedMs)}`;
}

/**
 * The line a finished turn's status message becomes: how many tool calls, of which tools (most
 * used first, then first used), and how long the turn took: `✅ done · 3 tool calls (Bash ×2,
 * Read) · 1:05`.
 */
export function formatProgressSummary(tools: readonly string[], elapsedMs: number): string {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool, (counts.get(tool) ?? 0) + 1);
  const names = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([tool, count]) => `${neutralizeSlackText(tool)}${count > 1 ? ` ×${count}` : ''}`);
  const more = counts.size > names.length ? ', …' : '';
  const calls = tools.length === 1 ? '1 tool call' : `${tools.length} tool calls`;
  return `✅ done · ${calls} (${names.join(', ')}${more}) · ${formatElapsed(elapsedMs)}`;
}
