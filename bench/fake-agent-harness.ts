import path from 'node:path';
import type { EventRecord, PromptRecord } from '../test/fakes/fake-agent-records.js';
import { createJsonLinesReader, type JsonLinesReader } from './json-lines-reader.js';
import { repoPath } from './repo-path.js';
import { waitUntil } from './wait-until.js';

export const fakeAgentPath = repoPath('test', 'fakes', 'fake-agent.mjs');

/**
 * A `command` harness that runs the fake agent with its records under `home`. Not an agent
 * (`agent: false`): messages are typed as they are, with no framing and no confirmation wait, so
 * what is measured is the path to the pane. Ready once the agent has drawn its prompt.
 */
export function fakeAgentHarness(home: string): Record<string, unknown> {
  return {
    kind: 'command',
    command: 'env',
    args: [`FAKE_AGENT_HOME=${home}`, process.execPath, fakeAgentPath],
    agent: false,
    readyPattern: '^ready$',
  };
}

export function promptReader(home: string): JsonLinesReader<PromptRecord> {
  return createJsonLinesReader<PromptRecord>(path.join(home, 'prompts.jsonl'));
}

/** Waits until `count` fake agents sharing `home` have started reading input. */
export async function waitForAgentsReady(
  home: string,
  count: number,
  timeoutMs: number,
): Promise<void> {
  const events = createJsonLinesReader<EventRecord>(path.join(home, 'events.jsonl'));
  await waitUntil(
    async () => {
      await events.readNew();
      return events.all.filter((record) => record.event === 'ready').length >= count;
    },
    { what: `${count} fake agent(s) ready in ${home}`, timeoutMs, intervalMs: 50 },
  );
}

/**
 * Waits for the agent behind `prompts` to record its prompt number `index` (counted from 0) and
 * checks that it is `text`: a garbled or merged paste stops the scenario, naming `who`.
 */
export async function awaitPrompt(
  prompts: JsonLinesReader<PromptRecord>,
  index: number,
  text: string,
  who: string,
): Promise<PromptRecord> {
  const record = await waitUntil(
    async () => {
      await prompts.readNew();
      return prompts.all[index];
    },
    { what: `the fake agent to record "${text}"`, timeoutMs: 10_000, intervalMs: 1 },
  );
  if (record.prompt !== text) {
    throw new Error(`bench: ${who} expected "${text}", the agent got "${record.prompt}"`);
  }
  return record;
}

/** Milliseconds from `sentAt` (process.hrtime.bigint() here) to the agent recording the prompt. */
export function latencyMs(sentAt: bigint, record: PromptRecord): number {
  return Number(BigInt(record.hrtime) - sentAt) / 1e6;
}
