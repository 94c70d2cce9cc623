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
