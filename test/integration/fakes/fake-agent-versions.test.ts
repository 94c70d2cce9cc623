import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_TESTED_VERSIONS } from '../../../src/harness/claude-versions.js';
import { injectedPrompt } from '../../../src/harness/read-injected-prompts.js';
import { readModel, waitForEvent, type ModelRecord } from '../../fakes/fake-agent-records.js';
import {
  claudeCodeBehaviour,
  hookSequence,
  injectedStart,
  QUEUED_BOX,
} from '../../helpers/claude-code-behaviour.js';
import { eventually } from '../../helpers/eventually.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';
import { startAgentPane, type AgentPane } from './start-agent-pane.js';

const WAIT_MS = 10_000;
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;

let tmux: PrivateTmux;
let dir: string;
let home: string;

beforeEach(async () => {
  tmux = createPrivateTmux();
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'fake-agent-versions-')));
  home = path.join(dir, 'home');
});

afterEach(async () => {
  await tmux.dispose();
  await rm(dir, { recursive: true, force: true });
});

interface HookCall {
  readonly event: string;
  readonly input: Record<string, unknown>;
}

const hooksFile = () => path.join(dir, 'hooks.jsonl');

async function hooks(): Promise<HookCall[]> {
  const text = await readFile(hooksFile(), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((input) => ({ event: String(input['hook_event_name']), input }));
}

const waitForHooks = (what: string, test: (calls: HookCall[]) => boolean) =>
  eventually(async () => ((calls) => (test(calls) ? calls : undefined))(await hooks()), {
    timeoutMs: WAIT_MS,
    what,
  });

/** The fake agent acting as `version`, every hook's payload appended to hooks.jsonl. */
async function startAs(version: string): Promise<AgentPane> {
  const record = { type: 'command', command: `{ cat; echo; } >> '${hooksFile()}'` };
  const settings = {
    hooks: Object.fromEntries(EVENTS.map((event) => [event, [{ hooks: [record] }]])),
  };
  const agent = await startAgentPane(tmux, {
    cwd: dir,
    args: ['--settings', JSON.stringify(settings)],
    env: { FAKE_AGENT_HOME: home, FAKE_AGENT_VERSION: version },
  });
  await waitForHooks('SessionStart', (calls) => calls.some((c) => c.event === 'SessionStart'));
  return agent;
}

const screenShows = (agent: AgentPane, pattern: RegExp) =>
  eventually(
    async () => ((screen) => (pattern.test(screen) ? screen : undefined))(await agent.capture()),
    {
      timeoutMs: WAIT_MS,
      what: `the screen to show ${String(pattern)}`,
    },
  );

const modelRecords = (): Promise<ModelRecord[]> => readModel(home);

/**
 * The fake agent, acting as each tested Claude Code version, does what that version does — the
 * same expectations test/real/claude-facts.test.ts holds the real client to
 * (test/helpers/claude-code-behaviour.ts). A version whose facts change fails there, and then here
 * until the fake learns it.
 */
describe.each(CLAUDE_TESTED_VERSIONS)('the fake agent as Claude Code %s', (version) => {
  const expected = claudeCodeBehaviour(version);

  it("prompts typed while a plain turn runs: listed above the box, their hooks in the version's order, one merged turn", async () => {
    const agent = await startAs(version);
    const gate = path.join(dir, 'slow-turn-may-end');
    await agent.say(`a slow turn\nFAKE:until ${gate}`);
    await waitForHooks('the slow turn to start', (calls) =>
      calls.some((c) => c.event === 'UserPromptSubmit'),
    );
    await agent.say('queued one');
    await agent.say('queued two');
    const screen = await screenShows(agent, expected.queuedLine('queued two'));
    expect(screen).toMatch(expected.queuedLine('queued one'));
    expect(screen).toMatch(QUEUED_BOX);
    for (const extra of expected.queuedExtra) expect(screen).toMatch(extra);
    await writeFile(gate, '');
    const calls = await waitForHooks(
      'the merged turn to end',
      (all) => all.filter((c) => c.event === 'Stop').length >= 2,
    );
    expect(hookSequence(calls)).toEqual(expected.queuedHooks);
    const merged = (await modelRecords()).at(-1);
    expect(merged?.texts).toEqual(['queued one\n', 'queued two']);
  });

  it('a prompt typed while a tool call is under way is injected into that turn', async () => {
    const agent = await startAs(version);
    const gate = path.join(dir, 'tool-may-run');
    await agent.say(`read the notes\nFAKE:until ${gate}\nFAKE:run Read {"file_path":"notes.txt"}`);
    await waitForHooks('the tool turn to start', (calls) =>
      calls.some((c) => c.event === 'UserPromptSubmit'),
    );
    await agent.say('injected words');
    await screenShows(agent, QUEUED_BOX);
    await writeFile(gate, '');
    const calls = await waitForHooks('the tool turn to end', (all) =>
      all.some((c) => c.event === 'Stop'),
    );
    expect(hookSequence(calls)).toEqual(expected.injectedHooks);
    const injected = (await modelRecords()).filter((r) =>
      r.texts.some((t) => t.startsWith(injectedStart('injected words'))),
    );
    expect(injected.map((r) => r.role)).toEqual([expected.injectedAs]);
    const stop = calls.find((c) => c.event === 'Stop');
    const transcript = await readFile(String(stop?.input['transcript_path']), 'utf8');
    expect(transcript.split('\n').map(injectedPrompt)).toContain('injected words');
    // No turn of its own follows.
    expect((await hooks()).filter((c) => c.event === 'Stop')).toHaveLength(1);
  });

  it('a collapsed paste reaches the model as the version sends it', async () => {
    const agent = await startAs(version);
    const paste = 'first line\nsecond line\n\n  third, indented';
    await agent.say(paste);
    await waitForHooks('the paste turn to end', (calls) => calls.some((c) => c.event === 'Stop'));
    const [record] = await modelRecords();
    expect(record?.texts).toHaveLength(1);
    expect(expected.pasteBlock(paste, record?.texts[0] ?? '')).toBe(true);
    // UserPromptSubmit carries the same (2.1.332: wrapped too).
    const submitted = (await hooks()).find((c) => c.event === 'UserPromptSubmit');
    expect(expected.pasteBlock(paste, String(submitted?.input['prompt']))).toBe(true);
  });

  it("the permission dialog shows the version's options", async () => {
    const agent = await startAs(version);
    await agent.say('make the file\nFAKE:dialog touch made');
    const dialog = await screenShows(agent, /Do you want to proceed\?/);
    for (const option of expected.permissionOptions) expect(dialog).toMatch(option);
    await agent.keys('Escape');
    await waitForEvent(home, 'permission_dialog_key', WAIT_MS);
  });
});
