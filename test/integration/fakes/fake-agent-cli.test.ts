// Start-up refusals and piped input need no terminal, so these run the agent as a plain child.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEvents, readPrompts, readTranscript } from '../../fakes/fake-agent-records.js';

const AGENT = fileURLToPath(new URL('../../fakes/fake-agent.mjs', import.meta.url));

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'fake-agent-cli-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function runAgent(
  args: readonly string[],
  env: Record<string, string> = { FAKE_AGENT_HOME: home },
) {
  const inherited = { ...process.env };
  delete inherited.FAKE_AGENT_HOME;
  return execa(process.execPath, [AGENT, ...args], {
    env: { ...inherited, ...env },
    extendEnv: false,
    input: '',
    reject: false,
    timeout: 10_000,
  });
}

describe('fake agent start-up', () => {
  it('exits 2 naming FAKE_AGENT_HOME when it is not set', async () => {
    const result = await runAgent([], {});

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('FAKE_AGENT_HOME');
  });

  it('refuses a --session-id that is not a UUID', async () => {
    const result = await runAgent(['--session-id', '../escape']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Invalid session ID');
    expect(await readEvents(home)).toMatchObject([{ event: 'refused', code: 1 }]);
  });

  it('refuses a --resume id that could name a file outside its folder', async () => {
    const result = await runAgent(['--resume', '../argv']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('No conversation found with session ID: ../argv');
  });

  it('refuses settings that are not JSON', async () => {
    const result = await runAgent(['--settings', '{not json']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('invalid --settings');
  });

  it('exits 2 when a flag is missing its value', async () => {
    const result = await runAgent(['--model']);

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("'--model' needs a value");
  });

  it('answers a positional prompt, then exits when its input ends', async () => {
    const sessionId = randomUUID();
    const result = await runAgent(['--session-id', sessionId, '--model', 'x', 'hello there']);

    expect(result.exitCode).toBe(0);
    expect((await readPrompts(home)).map((record) => record.prompt)).toEqual(['hello there']);
    const transcript = await readTranscript(home, sessionId);
    expect(transcript[1]?.message.content).toEqual([{ type: 'text', text: 'echo: hello there' }]);
  });
});
