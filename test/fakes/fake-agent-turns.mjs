// @ts-check
import { randomUUID } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import { appendJsonLine } from './fake-agent-jsonl.mjs';
import { runToolCalls } from './fake-agent-tools.mjs';

/**
 * @typedef {{ run: (event: string, payload: Record<string, unknown>, matchValue?: string) => Promise<void> } & import('./fake-agent-tools.mjs').AskingHooks} HookRunner
 * @typedef {{ sessionId: string, transcriptPath: string, cwd: string, hooks: HookRunner,
 *   turnMs: number, echo: (text: string) => void, say: (text: string) => void,
 *   restore?: (prompt: string) => void,
 *   askPermission?: (command: string) => Promise<boolean>,
 *   exit: () => void, idlePromptMs?: number,
 *   record?: (event: string, fields: Record<string, unknown>) => void,
 *   openDialog?: (onKey: ((key: string) => void) | undefined) => void }} TurnOptions
 * @typedef {{ readonly cancelled: boolean, cancel: () => void, wait: (ms: number) => Promise<void> }} Turn
 */

/**
 * The conversation behind the prompt line: one queue, so hooks run in the order Claude Code runs
 * them (SessionStart before any prompt; each prompt's UserPromptSubmit, answer and Stop before the
 * next prompt's) while the terminal keeps reading input.
 *
 * @param {TurnOptions} options
 */
export function createTurns(options) {
  const base = {
    session_id: options.sessionId,
    transcript_path: options.transcriptPath,
    cwd: options.cwd,
  };
  /** @type {Promise<void>} */
  let tail = Promise.resolve();
  /** @type {Turn | undefined} */
  let active;
  /** The prompt of the turn being answered. */
  let activePrompt = '';
  /** Claude Code's `idle_prompt`, due `idlePromptMs` after an answer unless a prompt comes first. */
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let idleTimer;
  const idleNotice = () => {
    idleTimer = undefined;
    const notification = {
      ...base,
      hook_event_name: 'Notification',
      message: 'Claude is waiting for your input',
      notification_type: 'idle_prompt',
    };
    void enqueue(() => options.hooks.run('Notification', notification, 'idle_prompt'));
  };

  /** @param {() => Promise<void>} job */
  const enqueue = (job) => {
    tail = tail.then(job);
    return tail;
  };

  /** @param {string} prompt */
  async function answer(prompt) {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
    const turn = createTurn();
    active = turn;
    activePrompt = prompt;
    await options.hooks.run('UserPromptSubmit', {
      ...base,
      hook_event_name: 'UserPromptSubmit',
      prompt,
    });
    if (prompt.split('\n').some((line) => line.trim() === 'FAKE:notify')) {
      const notification = {
        ...base,
        hook_event_name: 'Notification',
        message: 'Claude needs your permission to use Bash',
        notification_type: 'permission_prompt',
      };
      await options.hooks.run('Notification', notification, 'permission_prompt');
    }
    appendJsonLine(options.transcriptPath, transcriptLine(options.sessionId, 'user', prompt));
    const toolResults = await runToolCalls(prompt, {
      hooks: options.hooks,
      base,
      record: options.record ?? (() => undefined),
      say: options.say,
      openDialog: options.openDialog ?? (() => undefined),
    });
    await runScriptedTools(prompt, turn);
    const asked = /^FAKE:dialog (.+)$/m.exec(prompt)?.[1];
    const allowed = asked === undefined ? undefined : await options.askPermission?.(asked);
    // A line `FAKE:turn-ms <n>` makes this one turn last that long (the boot turn stays quick).
    const slow = /^FAKE:turn-ms (\d+)$/m.exec(prompt);
    await turn.wait(slow ? Number(slow[1]) : options.turnMs);
    active = undefined;
    if (turn.cancelled) {
      const content = [{ type: 'text', text: '[Request interrupted by user]' }];
      appendJsonLine(options.transcriptPath, transcriptLine(options.sessionId, 'user', content));
      options.say('⎿  Interrupted');
      return;
    }
    const text = [
      `echo: ${prompt.split('\n')[0] ?? ''}`,
      ...toolResults,
      ...(allowed === undefined ? [] : [allowed ? `ran ${asked}` : `${asked} refused`]),
    ].join('\n');
    const content = [{ type: 'text', text }];
    appendJsonLine(options.transcriptPath, transcriptLine(options.sessionId, 'assistant', content));
    options.say(`● ${shorten(text)}`);
    await options.hooks.run('Stop', {
      ...base,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: text,
    });
    // Once per answered turn, as Claude Code does (not after an interrupted one: no Stop).
    if ((options.idlePromptMs ?? 0) > 0) idleTimer = setTimeout(idleNotice, options.idlePromptMs);
    if (prompt.includes('FAKE:exit')) options.exit();
  }

  /**
   * Scripted tool calls, in prompt order: a line `FAKE:run <Name> <JSON input>` runs PreToolUse,
   * a short "tool run" and PostToolUse, as Claude Code does around each tool; `FAKE:sleep <ms>`
   * waits between them.
   *
   * @param {string} prompt
   * @param {Turn} turn
   */
  async function runScriptedTools(prompt, turn) {
    for (const line of prompt.split('\n').map((each) => each.trim())) {
      const sleep = /^FAKE:sleep (\d+)$/.exec(line);
      if (sleep) await turn.wait(Number(sleep[1]));
      const tool = /^FAKE:run (\S+)(?: (.*))?$/.exec(line);
      if (!tool || turn.cancelled) continue;
      const name = tool[1] ?? 'Bash';
      /** @type {unknown} */
      let input = {};
      try {
        input = JSON.parse(tool[2] ?? '{}');
      } catch {
        input = { command: tool[2] ?? '' };
      }
      const call = { ...base, tool_name: name, tool_input: input, tool_use_id: randomUUID() };
      await options.hooks.run('PreToolUse', { ...call, hook_event_name: 'PreToolUse' }, name);
      options.say(`● ${name}`);
      await turn.wait(100);
      const response = { stdout: '', stderr: '', interrupted: false };
      await options.hooks.run(
        'PostToolUse',
        { ...call, hook_event_name: 'PostToolUse', tool_response: response },
        name,
      );
    }
  }

  return {
    /** @param {'startup' | 'resume'} source */
    start(source) {
      const payload = { ...base, hook_event_name: 'SessionStart', source };
      return enqueue(() => options.hooks.run('SessionStart', payload, source));
    },
    /** @param {string} prompt */
    submit(prompt) {
      options.echo(`› ${shorten(prompt)}  (${prompt.length} chars)`);
      return enqueue(() => answer(prompt));
    },
    /** Whether a turn is being answered. */
    busy() {
      return active !== undefined;
    },
    /** Cancels the turn being answered; true when there was one. */
    interrupt() {
      if (active === undefined) return false;
      active.cancel();
      // Claude Code puts a prompt interrupted before any output back into the input box, at
      // once: the next key already finds it there.
      options.restore?.(activePrompt);
      return true;
    },
    /** Resolves once every queued prompt is answered and its hooks have run. */
    idle() {
      return tail;
    },
  };
}

/**
 * Keeps the screen small: only the first line of a (possibly 100 KB) text is shown.
 *
 * @param {string} text
 * @param {number} [width]
 */
function shorten(text, width = 60) {
  const first = text.split('\n')[0] ?? '';
  return first.length > width ? `${first.slice(0, width - 1)}…` : first;
}

/** @returns {Turn} */
function createTurn() {
  let cancelled = false;
  let wake = () => {};
  return {
    get cancelled() {
      return cancelled;
    },
    cancel() {
      cancelled = true;
      wake();
    },
    wait(ms) {
      if (cancelled || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}

/**
 * @param {string} sessionId
 * @param {'user' | 'assistant'} role
 * @param {string | { type: string, text: string }[]} content
 */
function transcriptLine(sessionId, role, content) {
  return {
    type: role,
    sessionId,
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    message: { role, content },
  };
}
