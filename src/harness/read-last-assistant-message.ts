import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';
import { readTranscriptTail } from './read-transcript-tail.js';
import { isRecord } from '../guards.js';

/**
 * The text of the last assistant message in a Claude Code transcript (JSON lines), for Stop hooks
 * that do not carry `last_assistant_message`; undefined when there is none. The path comes from a
 * hook payload, so it can name anything: readTranscriptTail reads only a regular file inside
 * Claude Code's projects folder, and only its last MiB; anything else throws.
 */
export async function readLastAssistantMessage(
  transcriptPath: unknown,
  projectsDir: string,
): Promise<string | undefined> {
  const text = await readTranscriptTail(transcriptPath, projectsDir);
  if (text === undefined) return undefined;
  const lines = text.split('\n').reverse();
  for (const line of lines) {
    const message = assistantText(line);
    if (message) return message;
  }
  return undefined;
}

export function assistantText(line: string): string | undefined {
  const entry = parseJsonOrUndefined(line);
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
