import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every prompt the fake agent in `agentHome` recorded, in order. */
export async function agentPrompts(agentHome: string): Promise<string[]> {
  const text = await readFile(path.join(agentHome, 'prompts.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { prompt: string }).prompt);
}

/** A prompt with its header's delivery tag taken out (`[cli · ana · 02be]` → `[cli · ana]`). */
export function untagged(prompt: string): string {
  return prompt.replace(/^(\[[^\]\n]*?) · [0-9a-f]{4}\]/gm, '$1]');
}
