import { readTranscriptTail } from './read-transcript-tail.js';
import { isRecord } from '../guards.js';

/**
 * The prompts Claude Code injected into a running turn, from the end of its transcript. A message
 * typed while a tool call was under way goes into that turn as a system message, and no
 * UserPromptSubmit ever fires for it; the transcript records it as a `queued_command` attachment
 * whose `prompt` is the text as submitted — delivery tag and all (test/real/FINDINGS.md (c) 2).
 * Like readLastAssistantMessage, only a regular file inside Claude Code's projects folder is read,
 * and only its last MiB.
 */
export async function readInjectedPrompts(
  transcriptPath: unknown,
  projectsDir: string,
): Promise<string[]> {
  const text = await readTranscriptTail(transcriptPath, projectsDir);
  if (text === undefined) return [];
  return text.split('\n').flatMap((line) => {
    const prompt = injectedPrompt(line);
    return prompt === undefined ? [] : [prompt];
  });
}

export function injectedPrompt(line: string): string | undefined {
  if (!line.includes('queued_command')) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(entry) || entry['type'] !== 'attachment') return undefined;
  const attachment = entry['attachment'];
  if (!isRecord(attachment) || attachment['type'] !== 'queued_command') return undefined;
  return typeof attachment['prompt'] === 'string' ? attachment['prompt'] : undefined;
}
