#!/usr/bin/env node
// @ts-check
/**
 * A stand-in for Claude Code, run in real tmux panes by tests and the benchmark: it reads raw
 * terminal input with bracketed paste, accepts Claude's `--session-id`/`--resume`/`--settings`, runs
 * the settings' hooks with Claude-shaped JSON, and records what it was given under
 * `$FAKE_AGENT_HOME` (prompts.jsonl, argv.jsonl, events.jsonl, hook-errors.jsonl, transcripts/;
 * read them with test/fakes/fake-agent-records.ts). Plain JavaScript with Node built-ins only, so
 * it starts fast and needs no build.
 *
 * Knobs (environment): FAKE_AGENT_STARTUP_MS (input is dropped until ready, default 0),
 * FAKE_AGENT_TURN_MS (time to answer, so Escape can cancel a turn; default 0),
 * FAKE_AGENT_HOOK_TIMEOUT_MS (default 10 000, or a hook's own `timeout` in seconds),
 * FAKE_AGENT_PASTE_SETTLE_MS (an Enter this soon after a paste joins it as a newline, as in Claude
 * Code, whose paste handler waits 100 ms; default 0, recorded as an `enter_absorbed` event).
 * A prompt with a line `FAKE:notify` also fires a permission Notification; one containing
 * `FAKE:exit` makes the agent exit 0 once that turn is answered. Each line
 * `FAKE:tool <Name> <JSON input>` is a tool call (PreToolUse, a short run, PostToolUse), and
 * `FAKE:sleep <ms>` waits between them.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseAgentArgs } from './fake-agent-args.mjs';
import { openConversation } from './fake-agent-conversation.mjs';
import { createHookRunner } from './fake-agent-hooks.mjs';
import { createInputReader } from './fake-agent-input.mjs';
import { appendJsonLine } from './fake-agent-jsonl.mjs';
import { createTurns } from './fake-agent-turns.mjs';

const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
const ESCAPE_WAIT_MS = 25;

const homeVariable = process.env.FAKE_AGENT_HOME;
if (homeVariable === undefined || homeVariable === '') {
  process.stderr.write(
    'fake-agent: set FAKE_AGENT_HOME to the folder where it keeps its records\n',
  );
  process.exit(2);
}
const home = path.resolve(homeVariable);
mkdirSync(path.join(home, 'conversations'), { recursive: true });
mkdirSync(path.join(home, 'transcripts'), { recursive: true });
const files = {
  prompts: path.join(home, 'prompts.jsonl'),
  argv: path.join(home, 'argv.jsonl'),
  events: path.join(home, 'events.jsonl'),
  hookErrors: path.join(home, 'hook-errors.jsonl'),
};
const cwd = process.cwd();
/** @type {string | null} */
let sessionId = null;

/** @param {string} event @param {Record<string, unknown>} [fields] */
const recordEvent = (event, fields = {}) =>
  appendJsonLine(files.events, { ts: Date.now(), pid: process.pid, sessionId, event, ...fields });

/** @param {string} message @param {number} code @returns {never} */
function refuse(message, code) {
  process.stderr.write(`${message}\n`);
  recordEvent('refused', { message, code });
  process.exit(code);
}

appendJsonLine(files.argv, {
  ts: Date.now(),
  pid: process.pid,
  argv: process.argv.slice(2),
  cwd,
  env: {
    THE_LOOP_SESSION: process.env.THE_LOOP_SESSION ?? null,
    THE_LOOP_INSTANCE: process.env.THE_LOOP_INSTANCE ?? null,
    THE_LOOP_SOCKET: process.env.THE_LOOP_SOCKET ?? null,
  },
  hasSessionToken: (process.env.THE_LOOP_SESSION_TOKEN ?? '') !== '',
});

const startupMs = readMs('FAKE_AGENT_STARTUP_MS', 0);
const turnMs = readMs('FAKE_AGENT_TURN_MS', 0);
const hookTimeoutMs = readMs('FAKE_AGENT_HOOK_TIMEOUT_MS', DEFAULT_HOOK_TIMEOUT_MS);
const parsed = parseAgentArgs(process.argv.slice(2));
if (!parsed.ok) refuse(parsed.message, 2);
const args = parsed.args;
const hookSettings = readHookSettings(args.settings);
const opened = openConversation(path.join(home, 'conversations'), args, {
  newId: randomUUID,
  cwd,
  now: Date.now(),
});
if (!opened.ok) refuse(opened.message, 1);
sessionId = opened.sessionId;
const currentSessionId = opened.sessionId;

const stdin = process.stdin;
const stdout = process.stdout;
// The pane may close under us; writing to a gone terminal is the end of this agent, not an error.
stdout.on('error', () => process.exit(0));

/** Replaces the input line with a short note of what was submitted. @param {string} text */
const echo = (text) => stdout.write(`\r\x1b[2K${text}`);
/** @param {string} text */
const say = (text) => stdout.write(`\r\n${text}\r\n> `);

/** Reasons to exit after which there is no terminal left to restore. */
const TERMINAL_GONE = new Set(['SIGHUP', 'terminal closed']);

/** @param {number} code @param {string} reason @returns {never} */
function exit(code, reason) {
  recordEvent('exit', { code, reason });
  hooks.stop();
  if (!TERMINAL_GONE.has(reason)) {
    stdout.write('\x1b[?2004l\r\n');
    if (stdin.isTTY) stdin.setRawMode(false);
  }
  process.exit(code);
}

const hooks = createHookRunner({
  hooks: hookSettings,
  cwd,
  env: { ...process.env, CLAUDE_PROJECT_DIR: cwd },
  timeoutMs: hookTimeoutMs,
  onFailure: (failure) =>
    appendJsonLine(files.hookErrors, {
      ts: Date.now(),
      pid: process.pid,
      sessionId: currentSessionId,
      ...failure,
    }),
});
const turns = createTurns({
  sessionId: currentSessionId,
  transcriptPath: path.join(home, 'transcripts', `${currentSessionId}.jsonl`),
  cwd,
  hooks,
  turnMs,
  echo,
  say,
  exit: () => exit(0, 'FAKE:exit'),
});

/** @param {string} prompt */
function submit(prompt) {
  appendJsonLine(files.prompts, {
    ts: Date.now(),
    hrtime: process.hrtime.bigint().toString(),
    sessionId: currentSessionId,
    prompt,
    pid: process.pid,
  });
  void turns.submit(prompt);
}

/** @param {'escape' | 'ctrl-c'} key */
function interrupt(key) {
  const turnActive = turns.interrupt();
  recordEvent('interrupt', { key, turnActive });
}

const reader = createInputReader({
  pasteSettleMs: Number(process.env.FAKE_AGENT_PASTE_SETTLE_MS ?? 0) || 0,
});
/** @param {import('./fake-agent-input.mjs').InputEffect[]} effects */
function apply(effects) {
  for (const effect of effects) {
    if (effect.type === 'typed') stdout.write(effect.text.replace(/\n/g, '\r\n'));
    else if (effect.type === 'erase') stdout.write('\b \b');
    else if (effect.type === 'pasted') stdout.write(`[Pasted text, ${effect.length} chars]`);
    else if (effect.type === 'submit') submit(effect.text);
    else if (effect.type === 'absorbed-enter') {
      stdout.write('\r\n');
      recordEvent('enter_absorbed');
    } else if (effect.type === 'escape') interrupt('escape');
    else if (effect.type === 'ctrl-c') {
      interrupt('ctrl-c');
      if (effect.repeated) exit(0, 'ctrl-c');
      say('Press Ctrl-C again to exit');
    }
  }
}

let ready = false;
const decoder = new StringDecoder('utf8');
/** @type {ReturnType<typeof setTimeout> | undefined} */
let escapeTimer;
if (stdin.isTTY) stdin.setRawMode(true);
stdin.on('data', (/** @type {Buffer} */ chunk) => {
  // Like a TUI that has not drawn its input box yet: early keystrokes are lost, not queued.
  if (!ready) {
    recordEvent('dropped', { bytes: chunk.length });
    return;
  }
  clearTimeout(escapeTimer);
  apply(reader.feed(decoder.write(chunk)));
  if (reader.hasPending()) escapeTimer = setTimeout(() => apply(reader.flush()), ESCAPE_WAIT_MS);
});
let inputEnded = false;
/** Input from a pipe can end; answer what was submitted (once ready), then leave like Claude. */
const finishAfterEnd = () => void turns.idle().then(() => exit(0, 'end of input'));
stdin.on('end', () => {
  // A terminal ends when its pane is killed: leave at once, as with SIGHUP, even mid-turn.
  if (stdin.isTTY) exit(129, 'terminal closed');
  inputEnded = true;
  if (ready) finishAfterEnd();
});
process.on('SIGTERM', () => exit(143, 'SIGTERM'));
process.on('SIGHUP', () => exit(129, 'SIGHUP'));

stdout.write('\x1b[?2004h');
stdout.write(`fake-agent · session ${currentSessionId} (${opened.source}) · starting…\r\n`);
recordEvent('started', { source: opened.source });

setTimeout(() => {
  ready = true;
  recordEvent('ready');
  stdout.write('ready\r\n> ');
  void turns.start(opened.source);
  if (args.prompt !== undefined) submit(args.prompt);
  if (inputEnded) finishAfterEnd();
}, startupMs);

/**
 * @param {string} name
 * @param {number} fallback
 */
function readMs(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) refuse(`fake-agent: ${name} must be a whole number of milliseconds`, 2);
  return Number(text);
}

/**
 * `--settings` takes a file path or inline JSON, as Claude's does; only its `hooks` key matters.
 *
 * @param {string | undefined} value
 * @returns {Record<string, unknown>}
 */
function readHookSettings(value) {
  if (value === undefined) return {};
  try {
    const text = value.trimStart().startsWith('{') ? value : readFileSync(value, 'utf8');
    /** @type {unknown} */
    const settings = JSON.parse(text);
    const hooksValue = isRecord(settings) ? (settings.hooks ?? {}) : undefined;
    if (!isRecord(hooksValue)) throw new Error('expected an object with an object "hooks"');
    return hooksValue;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refuse(`Error: invalid --settings ${value}: ${reason}`, 1);
  }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
