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

/** Milliseconds from `sentAt` (process.hrtime.bigint() here) to the agent recording the prompt. */
export function latencyMs(sentAt: bigint, record: PromptRecord): number {
  return Number(BigInt(record.hrtime) - sentAt) / 1e6;
}
