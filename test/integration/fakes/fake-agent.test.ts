import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readArgv,
  readEvents,
  readHookErrors,
  readPrompts,
  readTranscript,
  waitForEvent,
  waitForJsonLines,
  waitForPrompts,
} from '../../fakes/fake-agent-records.js';
import { createPrivateTmux, type PrivateTmux } from '../../helpers/private-tmux.js';
import { startAgentPane, type AgentPaneOptions } from './start-agent-pane.js';

const WAIT_MS = 10_000;
type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'Notification' | 'Stop';
type Hook = { type: 'command'; command: string };
type HookGroup = { matcher?: string; hooks: Hook[] };

let tmux: PrivateTmux;
let dir: string;
let home: string;

beforeEach(async () => {
  tmux = createPrivateTmux();
  // The agent reports its real cwd, so compare against the real path of the temporary folder.
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'fake-agent-test-')));
  home = path.join(dir, 'home');
});

afterEach(async () => {
  await tmux.dispose();
  await rm(dir, { recursive: true, force: true });
});

const hookFile = (event: HookEvent) => path.join(dir, `hook-${event}.jsonl`);
const command = (text: string): Hook => ({ type: 'command', command: text });
const recordPayload = (event: HookEvent) => command(`{ cat; echo; } >> '${hookFile(event)}'`);

/** Settings whose hooks append each payload to `hook-<Event>.jsonl`, after any `before` hooks. */
function recordingSettings(before: Partial<Record<HookEvent, Hook[]>> = {}) {
  const group = (event: HookEvent, matcher?: string): HookGroup => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [...(before[event] ?? []), recordPayload(event)],
  });
  return {
    hooks: {
      SessionStart: [
        group('SessionStart', 'startup|resume'),
        { matcher: 'compact', hooks: [command(`touch '${path.join(dir, 'compact-ran')}'`)] },
      ],
      UserPromptSubmit: [group('UserPromptSubmit')],
      Notification: [group('Notification', 'permission_prompt')],
      Stop: [group('Stop')],
    },
  };
}

function startAgent(options: Partial<AgentPaneOptions> & { settings?: object } = {}) {
  const settings = JSON.stringify(options.settings ?? recordingSettings());
  return startAgentPane(tmux, {
    cwd: options.cwd ?? dir,
    args: ['--settings', settings, ...(options.args ?? [])],
    env: { FAKE_AGENT_HOME: home, ...options.env },
  });
}

const waitForHooks = <T = Record<string, unknown>>(event: HookEvent, count = 1) =>
  waitForJsonLines<T>(hookFile(event), count, WAIT_MS);

describe('fake agent in a tmux pane', () => {
  it('records a pasted multi-line prompt byte-exact, submitting only on Enter', async () => {
    const sessionId = randomUUID();
    const agent = await startAgent({ args: ['--session-id', sessionId] });
    await waitForHooks('SessionStart');
    const text = [
      'first line',
      '',
      '  indented\twith a tab',
      'unicode: é ü 日本語 🚀',
      `quotes ' " \` $HOME \\ backslash`,
      'trailing spaces   ',
      '',
    ].join('\n');

    await agent.say(text);
    await agent.say('second prompt');
    const prompts = await waitForPrompts(home, 2, WAIT_MS);

    // Byte-exact but for tabs, which Claude Code submits as four spaces.
    expect(prompts.map((record) => record.prompt)).toEqual([
      text.replace(/\t/g, '    '),
      'second prompt',
    ]);
    expect(prompts[0]).toMatchObject({ sessionId, pid: expect.any(Number) });
    expect(BigInt(prompts[1]?.hrtime ?? '0')).toBeGreaterThan(BigInt(prompts[0]?.hrtime ?? '0'));
  });

  it('records a 100 KB prompt byte-exact', async () => {
    const agent = await startAgent();
    await waitForHooks('SessionStart');
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `${String(i).padStart(4, '0')} ${'abcdefghij'.repeat(9)} é🚀`,
    );
    const text = lines.join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(100 * 1024);

    await agent.say(text);
    const [prompt] = await waitForPrompts(home, 1, 20_000);

    expect(prompt?.prompt.length).toBe(text.length);
    expect(prompt?.prompt === text).toBe(true);
    expect(await readPrompts(home)).toHaveLength(1);
  });

  it('runs the settings hooks with Claude-shaped JSON and records its start', async () => {
    const sessionId = randomUUID();
    const settings = recordingSettings({
      SessionStart: [command(`pwd > cwd.txt; printf %s "$THE_LOOP_SESSION" > env.txt`)],
    });
    const settingsPath = path.join(dir, 'settings.json');
    await writeFile(settingsPath, JSON.stringify(settings));
    const env = {
      THE_LOOP_SESSION: 'standing:sup',
      THE_LOOP_INSTANCE: 'laptop-a',
      THE_LOOP_SOCKET: '/tmp/control.sock',
      THE_LOOP_SESSION_TOKEN: 'secret-token-value',
    };
    const args = ['--session-id', sessionId, '--permission-mode', 'acceptEdits', '--model', 'x'];
    const agent = await startAgentPane(tmux, {
      cwd: dir,
      args: [...args, '--settings', settingsPath],
      env: { FAKE_AGENT_HOME: home, ...env },
    });

    const [sessionStart] = await waitForHooks('SessionStart');
    await agent.say('What is up?\nFAKE:notify\nmore text');
    const [stop] = await waitForHooks('Stop');

    const transcriptPath = path.join(home, 'transcripts', `${sessionId}.jsonl`);
    const base = { session_id: sessionId, transcript_path: transcriptPath, cwd: dir };
    expect(sessionStart).toEqual({ ...base, hook_event_name: 'SessionStart', source: 'startup' });
    expect(await waitForHooks('UserPromptSubmit')).toEqual([
      {
        ...base,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'What is up?\nFAKE:notify\nmore text',
      },
    ]);
    expect(await waitForHooks('Notification')).toEqual([
      {
        ...base,
        hook_event_name: 'Notification',
        message: 'Claude needs your permission to use Bash',
        notification_type: 'permission_prompt',
      },
    ]);
    expect(stop).toEqual({
      ...base,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'echo: What is up?',
    });
    expect((await readFile(path.join(dir, 'cwd.txt'), 'utf8')).trim()).toBe(dir);
    expect(await readFile(path.join(dir, 'env.txt'), 'utf8')).toBe('standing:sup');
    await expect(readFile(path.join(dir, 'compact-ran'))).rejects.toThrow(/ENOENT/);

    const transcript = await readTranscript(home, sessionId);
    expect(transcript.map((line) => [line.type, line.message.content])).toEqual([
      ['user', 'What is up?\nFAKE:notify\nmore text'],
      ['assistant', [{ type: 'text', text: 'echo: What is up?' }]],
    ]);
    const [start] = await readArgv(home);
    expect(start).toMatchObject({
      argv: [...args, '--settings', settingsPath],
      cwd: dir,
      env: { THE_LOOP_SESSION: 'standing:sup', THE_LOOP_INSTANCE: 'laptop-a' },
      hasSessionToken: true,
    });
    expect(start?.env.THE_LOOP_SOCKET).toBe('/tmp/control.sock');
    expect(await readFile(path.join(home, 'argv.jsonl'), 'utf8')).not.toContain('secret-token');
  });

  it('exits with status 1 when --resume names an unknown conversation', async () => {
    const agent = await startAgent({ args: ['--resume', 'no-such-conversation'] });

    expect(await agent.exitStatus()).toBe(1);
    expect(await agent.capture()).toContain(
      'No conversation found with session ID: no-such-conversation',
    );
    expect(await readPrompts(home)).toEqual([]);
  });

  it('resumes a known conversation with the same id and transcript', async () => {
    const sessionId = randomUUID();
    const first = await startAgent({ args: ['--session-id', sessionId] });
    await waitForHooks('SessionStart');
    await first.say('first question\nFAKE:exit');
    expect(await first.exitStatus()).toBe(0);

    const second = await startAgent({ args: ['--resume', sessionId] });
    const starts = await waitForHooks('SessionStart', 2);
    await second.say('second question');
    const prompts = await waitForPrompts(home, 2, WAIT_MS);
    await waitForHooks('Stop', 2);

    expect(starts[1]).toMatchObject({ session_id: sessionId, source: 'resume' });
    expect(prompts.map((record) => record.sessionId)).toEqual([sessionId, sessionId]);
    expect(prompts[0]?.pid).not.toBe(prompts[1]?.pid);
    const transcript = await readTranscript(home, sessionId);
    expect(transcript.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(transcript[2]?.message.content).toBe('second question');
  });

  it('refuses --session-id of a conversation that already exists', async () => {
    const sessionId = randomUUID();
    await startAgent({ args: ['--session-id', sessionId] });
    await waitForHooks('SessionStart');

    const again = await startAgent({ args: ['--session-id', sessionId] });

    expect(await again.exitStatus()).toBe(1);
    expect(await again.capture()).toContain(`Session ID ${sessionId} is already in use`);
  });

  it('records Escape as an interrupt and cancels the turn being answered', async () => {
    const sessionId = randomUUID();
    const agent = await startAgent({
      args: ['--session-id', sessionId],
      env: { FAKE_AGENT_TURN_MS: '60000' },
    });
    await waitForHooks('SessionStart');
    await agent.keys('Escape');
    const idle = await waitForEvent(home, 'interrupt', WAIT_MS);

    await agent.say('a slow question');
    await waitForHooks('UserPromptSubmit');
    await agent.keys('Escape');
    await waitForJsonLines(path.join(home, 'transcripts', `${sessionId}.jsonl`), 2, WAIT_MS);

    expect(idle).toMatchObject({ key: 'escape', turnActive: false });
    const interrupts = (await readEvents(home)).filter((event) => event.event === 'interrupt');
    expect(interrupts).toMatchObject([
      { key: 'escape', turnActive: false },
      { key: 'escape', turnActive: true },
    ]);
    const transcript = await readTranscript(home, sessionId);
    expect(transcript[1]?.message.content).toEqual([
      { type: 'text', text: '[Request interrupted by user]' },
    ]);
    await expect(readFile(hookFile('Stop'))).rejects.toThrow(/ENOENT/);
  });

  it('drops input that arrives before it is ready', async () => {
    const agent = await startAgent({ env: { FAKE_AGENT_STARTUP_MS: '2000' } });
    await waitForEvent(home, 'started', WAIT_MS);
    await agent.type('typed too early');
    await agent.keys('Enter');
    await waitForEvent(home, 'dropped', WAIT_MS);

    await waitForHooks('SessionStart');
    await agent.say('on time');
    await waitForPrompts(home, 1, WAIT_MS);
    await waitForHooks('Stop');

    expect((await readPrompts(home)).map((record) => record.prompt)).toEqual(['on time']);
    const order = (await readEvents(home)).map((event) => event.event);
    expect(order.indexOf('dropped')).toBeLessThan(order.indexOf('ready'));
  });

  it('logs a failing and a hanging hook, kills the hanging one and carries on', async () => {
    const settings = recordingSettings({
      UserPromptSubmit: [command('echo boom >&2; exit 3'), command('sleep 30')],
    });
    const agent = await startAgent({ settings, env: { FAKE_AGENT_HOOK_TIMEOUT_MS: '500' } });
    await waitForHooks('SessionStart');

    await agent.say('hello');
    await waitForHooks('Stop');

    expect(await waitForHooks('UserPromptSubmit')).toHaveLength(1);
    expect(await readHookErrors(home)).toMatchObject([
      { hookEvent: 'UserPromptSubmit', exitCode: 3, timedOut: false, stderr: 'boom\n' },
      { hookEvent: 'UserPromptSubmit', command: 'sleep 30', timedOut: true, signal: 'SIGKILL' },
    ]);
  });

  it('exits on Ctrl-C pressed twice in a row', async () => {
    const agent = await startAgent();
    await waitForHooks('SessionStart');
    await agent.keys('C-c');
    await waitForEvent(home, 'interrupt', WAIT_MS);
    await agent.keys('C-c');

    expect(await agent.exitStatus()).toBe(0);
    expect(await waitForEvent(home, 'exit', WAIT_MS)).toMatchObject({ code: 0, reason: 'ctrl-c' });
  });
});
