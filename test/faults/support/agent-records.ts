import { untagged } from '../../helpers/agent-prompts.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServeFixture } from '../../helpers/run-serve.js';

interface PromptLine {
  readonly prompt: string;
  readonly sessionId: string;
}

interface LaunchLine {
  readonly argv: readonly string[];
  readonly pid: number;
}

async function jsonLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * What the fake agents of a serve fixture were given, as they recorded it: every submitted prompt
 * except boot directives, and every launch with its argv.
 */
export const agentRecords = {
  async prompts(fixture: ServeFixture): Promise<string[]> {
    const lines = await jsonLines<PromptLine>(path.join(fixture.agentHome, 'prompts.jsonl'));
    return lines
      .map((line) => untagged(line.prompt))
      .filter((prompt) => !prompt.startsWith('[the-loop]'));
  },
  /** The text of each user prompt without its one-line origin header. */
  async bodies(fixture: ServeFixture): Promise<string[]> {
    return (await agentRecords.prompts(fixture)).map((prompt) =>
      prompt.slice(prompt.indexOf('\n\n') + 2),
    );
  },
  launches(fixture: ServeFixture): Promise<LaunchLine[]> {
    return jsonLines<LaunchLine>(path.join(fixture.agentHome, 'argv.jsonl'));
  },
};
