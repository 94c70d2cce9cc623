import { open } from 'node:fs/promises';

/** Only the end of a transcript matters, and transcripts of long sessions grow large. */
const tailBytes = 1024 * 1024;

/**
 * The text of the last assistant message in a Claude Code transcript (JSON lines), for Stop hooks
 * that do not carry `last_assistant_message`. Anything unreadable yields undefined.
 */
export async function readLastAssistantMessage(
  transcriptPath: unknown,
): Promise<string | undefined> {
  if (typeof transcriptPath !== 'string' || transcriptPath === '') return undefined;
  let text: string;
  try {
    const handle = await open(transcriptPath, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - tailBytes);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const lines = text.split('\n').reverse();
  for (const line of lines) {
    const message = assistantText(line);
    if (message) return message;
  }
  return undefined;
}

export function assistantText(line: string): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(entry) || entry['type'] !== 'assistant' || !isRecord(entry['message']))
    return undefined;
  const content = entry['message']['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .filter((part): part is Record<string, unknown> => isRecord(part) && part['type'] === 'text')
    .map((part) => (typeof part['text'] === 'string' ? part['text'] : ''));
  const joined = parts.join('\n').trim();
  return joined || undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
