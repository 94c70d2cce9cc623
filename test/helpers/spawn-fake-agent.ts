import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TmuxDriver } from '../../src/tmux/tmux-driver.js';
import { eventually } from './eventually.js';

export const fakeAgentPath = path.resolve('test/fakes/fake-agent.mjs');

export interface FakeAgentSession {
  readonly name: string;
  readonly home: string;
  prompts(): Promise<Array<{ prompt: string; sessionId: string; ts: number }>>;
}

/**
 * Starts the fake agent in a tmux session through the driver (so it carries the owner tag) and
 * waits until its SessionStart hook has run, which is when it accepts input.
 */
export async function spawnFakeAgent(
  driver: TmuxDriver,
  options: { name: string; owner: string; env?: Record<string, string> },
): Promise<FakeAgentSession> {
  const home = await mkdtemp(path.join(tmpdir(), 'loop-agent-'));
  const readyFile = path.join(home, 'ready');
  const settings = JSON.stringify({
    hooks: {
      SessionStart: [
        { matcher: '', hooks: [{ type: 'command', command: `touch '${readyFile}'` }] },
      ],
    },
  });
  await driver.spawn({
    name: options.name,
    cwd: home,
    argv: [process.execPath, fakeAgentPath, '--settings', settings],
    env: { FAKE_AGENT_HOME: home, ...options.env },
    owner: options.owner,
  });
  await eventually(
    async () =>
      (await readFile(readyFile).then(
        () => true,
        () => false,
      )) || undefined,
    {
      what: `fake agent ${options.name} ready`,
    },
  );
  return {
    name: options.name,
    home,
    async prompts() {
      const text = await readFile(path.join(home, 'prompts.jsonl'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { prompt: string; sessionId: string; ts: number });
    },
  };
}
