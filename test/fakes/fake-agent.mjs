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
 * FAKE_AGENT_PASTE_SETTLE_MS (an Enter this soon after a paste is lost and the text stays in the
 * box, as Claude Code 2.1 loses an Enter that comes within ~500 ms of its box first showing;
 * default 0, recorded as an `enter_absorbed` event).
 * FAKE_AGENT_IDLE_PROMPT_MS (Claude Code's `idle_prompt` Notification this long after each
 * answer, unless a prompt comes first; Claude Code waits 60 s; default 0 = never).
 * FAKE_AGENT_VERSION (e.g. 2.1.197 or 2.1.332) acts as that Claude Code version where the-loop can
 * see a difference (fake-agent-version.mjs): prompts typed while a turn runs, the `prompt_id` of
 * hooks, the permission dialog's options, what the model gets of a collapsed paste
 * (`model.jsonl`); unset, the older simpler model (each prompt a turn of its own).
 * FAKE_AGENT_TRUST_DIALOG=1 shows Claude Code's trust dialog before SessionStart
 * (fake-agent-dialogs.mjs): `1` or Enter trusts, `2` or Escape exits 1, a paste is dropped.
 * FAKE_AGENT_UNKNOWN_DIALOG=1 shows, before SessionStart, a dialog the-loop does not know (2.1.332's
 * "Adding a new directory"): Down then Enter goes on, Enter alone or Escape exits 1.
 * A prompt line `FAKE:dialog <command>` shows Claude Code's permission dialog for that command
 * (no input box; it takes every key; `1` or Enter says Yes, `3` or Escape No) before the answer;
 * unlike Claude Code it still ends a turn whose tool was refused with a Stop.
 * A prompt with a line `FAKE:notify` also fires a permission Notification; one containing
 * `FAKE:exit` makes the agent exit 0 once that turn is answered; `FAKE:turn-ms <n>` makes that
 * turn last n ms. `FAKE:tool <Tool> <arg>` lines ask for permission through the PermissionRequest
 * hook (see fake-agent-tools.mjs); each line `FAKE:run <Name> <JSON input>` is an allowed tool call
 * (PreToolUse, a short run, PostToolUse), and `FAKE:sleep <ms>` waits between them;
 * `FAKE:until <path>` holds the turn until that file exists.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseAgentArgs } from './fake-agent-args.mjs';
import { openConversation } from './fake-agent-conversation.mjs';
import { createHookRunner } from './fake-agent-hooks.mjs';
import { openPermissionDialog, openTrustDialog, openUnknownDialog } from './fake-agent-dialogs.mjs';
import { createInputReader } from './fake-agent-input.mjs';
import { appendJsonLine } from './fake-agent-jsonl.mjs';
import { createTurns } from './fake-agent-turns.mjs';
import { versionBehaviour } from './fake-agent-version.mjs';

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
/** @type {ReturnType<typeof versionBehaviour>} */
let behaviour;
try {
  behaviour = versionBehaviour(process.env.FAKE_AGENT_VERSION);
} catch {
  refuse('fake-agent: FAKE_AGENT_VERSION must be a version such as 2.1.332', 2);
}
const parsed = parseAgentArgs(process.argv.slice(2));
if (!parsed.ok) refuse(parsed.message, 2);
const args = parsed.args;
const hookSettings = readHookSettings(args.settings);
readMcpConfig(args.mcpConfig);
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

/**
 * The input box line, as Claude Code draws it: its `❯` is followed by a no-break space (a prompt
 * echoed in the conversation has a plain one), which is how the-loop finds the box on screen.
 */
const BOX = '❯\u00a0';
/**
 * While a permission dialog shows, it takes every key (a paste or letters are swallowed, as in
 * Claude Code) and the first one answers it in the terminal.
 * @type {((key: string) => void) | undefined}
 */
let dialogKey;
/** What the input box shows: one line, always redrawn as the last line of the screen. */
let boxShown = '';
/** With a version: the prompts waiting for the running turn, listed right above the box. */
/** @type {string[]} */
let queuedLines = [];
/** How many of those lines are on screen above the box. */
let drawnAbove = 0;
/** Claude Code's empty box while prompts are queued. */
const QUEUED_PLACEHOLDER = 'Press up to edit queued messages';
/** Takes the box line, and the queued lines above it, off the screen. */
const clearBox = () => {
  stdout.write(drawnAbove > 0 ? `\r\x1b[2K\x1b[${drawnAbove}A\r\x1b[J` : '\r\x1b[2K');
  drawnAbove = 0;
};
const drawBox = () => {
  // An open permission dialog stands where the box was, as in Claude Code.
  if (dialogKey !== undefined) return;
  clearBox();
  for (const line of queuedLines) stdout.write(`${line}\r\n`);
  drawnAbove = queuedLines.length;
  const empty = boxShown === '' && queuedLines.length > 0 ? QUEUED_PLACEHOLDER : boxShown;
  stdout.write(`${BOX}${empty}`);
};
/** Puts a line above the box and draws the box again under it. @param {string} text */
const say = (text) => {
  clearBox();
  stdout.write(`${text}\r\n`);
  drawBox();
};
/** A short note of what was submitted, above a fresh, empty box. @param {string} text */
const echo = (text) => {
  boxShown = '';
  say(text);
};

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
  restore: (prompt) => {
    reader.setLine(prompt);
    boxParts = [{ text: prompt, collapsed: false }];
    boxShown = prompt.replace(/\n/g, ' ');
    drawBox();
  },
  ...(behaviour
    ? {
        behaviour,
        modelPath: path.join(home, 'model.jsonl'),
        queueChanged: (/** @type {string[]} */ prompts) => {
          queuedLines = behaviour?.queuedLines(prompts) ?? [];
          drawBox();
        },
      }
    : {}),
  exit: () => exit(0, 'FAKE:exit'),
  askPermission: async (command) => {
    drawnAbove = 0;
    dialog = openPermissionDialog(
      command,
      { write: (text) => stdout.write(text), record: recordEvent },
      behaviour,
    );
    const yes = await dialog.answered;
    dialog = undefined;
    drawBox();
    return yes;
  },
  idlePromptMs: readMs('FAKE_AGENT_IDLE_PROMPT_MS', 0),
  record: recordEvent,
  openDialog: (onKey) => {
    dialogKey = onKey;
  },
});

/**
 * What the box holds, piece by piece: with a version, a collapsed paste reaches the model wrapped
 * as the version wraps it (2.1.332: `<pasted_content id="…">`).
 * @type {{ text: string, collapsed: boolean }[]}
 */
let boxParts = [];
/** @param {string} typed */
function submit(typed) {
  // Claude Code submits a tab as four spaces.
  const prompt = typed.replace(/\t/g, '    ');
  const joined = boxParts.map((part) => part.text).join('');
  const model =
    behaviour && joined === typed
      ? boxParts
          .map((part) =>
            part.collapsed ? behaviour?.wrapPaste(part.text, randomUUID().slice(0, 4)) : part.text,
          )
          .join('')
          .replace(/\t/g, '    ')
      : prompt;
  boxParts = [];
  appendJsonLine(files.prompts, {
    ts: Date.now(),
    hrtime: process.hrtime.bigint().toString(),
    sessionId: currentSessionId,
    prompt,
    pid: process.pid,
  });
  // The box empties at once, also when the prompt only joins the queue above it.
  boxShown = '';
  // 2.1.332 hands its hooks the wrapped text as well (prompts.jsonl keeps what was typed).
  void turns.submit(behaviour?.submitsWrapped ? model : prompt, model);
}

/**
 * Escape as Claude Code 2.1 reads it: it interrupts a running turn; on a box with text the first
 * press only warns (`Esc again to clear`) and the second empties it.
 */
let escapesOnText = 0;
function escape() {
  const busy = turns.busy();
  interrupt('escape');
  if (busy) {
    escapesOnText = 0;
    return;
  }
  if (reader.current() === '') return;
  escapesOnText += 1;
  if (escapesOnText < 2) return;
  escapesOnText = 0;
  reader.setLine('');
  boxShown = '';
  boxParts = [];
  drawBox();
  recordEvent('box_cleared');
}

/** @param {'escape' | 'ctrl-c'} key */
function interrupt(key) {
  const turnActive = turns.interrupt();
  recordEvent('interrupt', { key, turnActive });
}

let pasteCount = 0;
const reader = createInputReader({
  pasteSettleMs: Number(process.env.FAKE_AGENT_PASTE_SETTLE_MS ?? 0) || 0,
});
/** @param {import('./fake-agent-input.mjs').InputEffect[]} effects */
function apply(effects) {
  for (const effect of effects) {
    if (effect.type === 'typed') {
      boxParts.push({ text: effect.text, collapsed: false });
      boxShown += effect.text.replace(/\n/g, ' ');
      drawBox();
    } else if (effect.type === 'erase') {
      const last = boxParts.at(-1);
      if (last) last.text = Array.from(last.text).slice(0, -1).join('');
      boxShown = Array.from(boxShown).slice(0, -1).join('');
      drawBox();
    }
    // Claude Code shows a paste as a placeholder in its input box; the-loop looks for it there
    // before it presses Enter a second time.
    else if (effect.type === 'pasted') {
      // As Claude Code 2.1: a long paste (over ~800 characters, or 3+ newlines) is one token.
      pasteCount += 1;
      const collapsed = effect.length > 800 || effect.newlines >= 3;
      boxParts.push({ text: effect.text, collapsed });
      if (collapsed) {
        const lines = effect.newlines > 0 ? ` +${effect.newlines} lines` : '';
        boxShown += `[Pasted text #${pasteCount}${lines}]`;
      } else boxShown += effect.text.replace(/\n/g, ' ');
      drawBox();
    } else if (effect.type === 'submit') submit(effect.text);
    else if (effect.type === 'absorbed-enter') {
      recordEvent('enter_absorbed');
    } else if (effect.type === 'escape') escape();
    else if (effect.type === 'ctrl-c') {
      interrupt('ctrl-c');
      if (effect.repeated) exit(0, 'ctrl-c');
      say('Press Ctrl-C again to exit');
    }
  }
}

let ready = false;
/** A dialog on screen (trust, permission): it takes every key. */
/** @type {import('./fake-agent-dialogs.mjs').Dialog | undefined} */
let dialog;
const decoder = new StringDecoder('utf8');
/** @type {ReturnType<typeof setTimeout> | undefined} */
let escapeTimer;
if (stdin.isTTY) stdin.setRawMode(true);
stdin.on('data', (/** @type {Buffer} */ chunk) => {
  // Like a TUI that has not drawn its input box yet: early keystrokes are lost, not queued.
  if (dialog) {
    dialog.feed(chunk.toString('utf8'));
    return;
  }
  if (!ready) {
    recordEvent('dropped', { bytes: chunk.length });
    return;
  }
  if (dialogKey !== undefined) {
    const answer = dialogKey;
    dialogKey = undefined;
    recordEvent('dialog_key', { bytes: chunk.length });
    answer(chunk.toString('utf8'));
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

setTimeout(async () => {
  if (process.env.FAKE_AGENT_TRUST_DIALOG === '1') {
    dialog = openTrustDialog({ write: (text) => stdout.write(text), record: recordEvent });
    if (!(await dialog.answered)) exit(1, 'trust refused');
    dialog = undefined;
  }
  if (process.env.FAKE_AGENT_UNKNOWN_DIALOG === '1') {
    dialog = openUnknownDialog({ write: (text) => stdout.write(text), record: recordEvent });
    if (!(await dialog.answered)) exit(1, 'unknown dialog refused');
    dialog = undefined;
  }
  ready = true;
  recordEvent('ready');
  stdout.write('ready\r\n');
  drawBox();
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
 * `--mcp-config` names a file (or inline JSON) of `{"mcpServers": {...}}`, as Claude's does: a
 * config that does not parse stops the agent, and the servers it names are recorded (the fake
 * starts none of them).
 *
 * @param {string | undefined} value
 */
function readMcpConfig(value) {
  if (value === undefined) return;
  try {
    const text = value.trimStart().startsWith('{') ? value : readFileSync(value, 'utf8');
    /** @type {unknown} */
    const config = JSON.parse(text);
    const servers = isRecord(config) ? config.mcpServers : undefined;
    if (!isRecord(servers)) throw new Error('expected an object with an object "mcpServers"');
    recordEvent('mcp_config', { path: value, servers });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    refuse(`Error: invalid --mcp-config ${value}: ${reason}`, 1);
  }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
