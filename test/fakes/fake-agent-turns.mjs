// @ts-check
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
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
 *   openDialog?: (onKey: ((key: string) => void) | undefined) => void,
 *   behaviour?: import('./fake-agent-version.mjs').VersionBehaviour,
 *   modelPath?: string,
 *   queueChanged?: (prompts: string[]) => void }} TurnOptions
 * @typedef {{ readonly cancelled: boolean, cancel: () => void, wait: (ms: number) => Promise<void> }} Turn
 */

/**
 * The conversation behind the prompt line: one queue, so hooks run in the order Claude Code runs
 * them (SessionStart before any prompt; each prompt's UserPromptSubmit, answer and Stop before the
 * next prompt's) while the terminal keeps reading input.
 *
 * With a version (`options.behaviour`, FAKE_AGENT_VERSION), prompts typed while a turn runs are
 * handled as that version does (test/real/FINDINGS.md (c), (h)): they are listed above the box;
 * a scripted tool call (`FAKE:run`) that ends after they came takes them into its turn (injected:
 * a `queued_command` attachment in the transcript, no turn of their own); otherwise, once the
 * turn's Stop has run, they are answered together as one turn with one Stop. 2.1.197 fires their
 * UserPromptSubmit then, each with a `prompt_id` of its own; 2.1.332 fires it as each is queued,
 * with the running turn's `prompt_id`, and starts the merged turn with none. Every hook of a turn
 * carries its `prompt_id`, and what the model would get goes to `model.jsonl`.
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
  const behaviour = options.behaviour;
  /** With a version: prompts typed while a turn runs, waiting to be taken. */
  /** @type {{ prompt: string, model: string }[]} */
  let waiting = [];
  /** With a version: a turn (or the merged turn after it) is being answered. */
  let running = false;
  /** The running turn's prompt_id (with a version). */
  let activeId = '';
  /** Settles once the running turn's UserPromptSubmit, and those of prompts queued into it, ran. */
  /** @type {Promise<void>} */
  let submittedHooks = Promise.resolve();
  /** @type {() => void} */
  let turnSubmitted = () => undefined;
  /** @param {string} promptId @param {'user' | 'system'} role @param {string[]} texts */
  const recordModel = (promptId, role, texts) => {
    if (options.modelPath === undefined) return;
    appendJsonLine(options.modelPath, {
      ts: Date.now(),
      sessionId: options.sessionId,
      promptId,
      role,
      texts,
    });
  };
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

  /**
   * One turn: its prompts (several when queued prompts merge), what the model gets of each, the
   * turn's prompt_id (none without a version) and whether their UserPromptSubmit already ran.
   *
   * @param {string[]} prompts
   * @param {string[]} models
   * @param {{ promptId?: string, submitted: boolean }} plan
   */
  async function answer(prompts, models, plan) {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
    const prompt = prompts.join('\n');
    const turn = createTurn();
    active = turn;
    activePrompt = prompt;
    const idField = plan.promptId === undefined ? {} : { prompt_id: plan.promptId };
    const turnBase = { ...base, ...idField };
    if (!plan.submitted) {
      for (const [index, each] of prompts.entries()) {
        // Queued prompts taken after a Stop (2.1.197) each have a prompt_id of their own; the
        // turn goes on with the last one's.
        const own =
          plan.promptId === undefined || index === prompts.length - 1
            ? idField
            : { prompt_id: randomUUID() };
        await options.hooks.run('UserPromptSubmit', {
          ...base,
          ...own,
          hook_event_name: 'UserPromptSubmit',
          prompt: each,
        });
      }
    }
    turnSubmitted();
    if (plan.promptId !== undefined) {
      // Claude Code sends queued prompts as one user message, every block but the last with a
      // newline added.
      const texts = models.map((text, index) => (index < models.length - 1 ? `${text}\n` : text));
      recordModel(plan.promptId, 'user', texts);
    }
    if (prompt.split('\n').some((line) => line.trim() === 'FAKE:notify')) {
      const notification = {
        ...turnBase,
        hook_event_name: 'Notification',
        message: 'Claude needs your permission to use Bash',
        notification_type: 'permission_prompt',
      };
      await options.hooks.run('Notification', notification, 'permission_prompt');
    }
    appendJsonLine(options.transcriptPath, transcriptLine(options.sessionId, 'user', prompt));
    const toolResults = await runToolCalls(prompt, {
      hooks: options.hooks,
      base: turnBase,
      record: options.record ?? (() => undefined),
      say: options.say,
      openDialog: options.openDialog ?? (() => undefined),
    });
    await runScriptedTools(prompt, turn, turnBase);
    const asked = /^FAKE:dialog (.+)$/m.exec(prompt)?.[1];
    const allowed = asked === undefined ? undefined : await options.askPermission?.(asked);
    // A line `FAKE:turn-ms <n>` makes this one turn last that long (the boot turn stays quick).
    const slow = /^FAKE:turn-ms (\d+)$/m.exec(prompt);
    await turn.wait(slow ? Number(slow[1]) : options.turnMs);
    // A line `FAKE:until <path>` holds the turn until that file exists (a test's gate).
    const until = /^FAKE:until (.+)$/m.exec(prompt)?.[1];
    while (until !== undefined && !turn.cancelled && !existsSync(until)) await turn.wait(25);
    // The hooks of prompts queued into this turn come before its Stop.
    await submittedHooks;
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
      ...turnBase,
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
   * @param {Record<string, unknown>} turnBase
   */
  async function runScriptedTools(prompt, turn, turnBase) {
    for (const line of prompt.split('\n').map((each) => each.trim())) {
      const sleep = /^FAKE:sleep (\d+)$/.exec(line);
      if (sleep) await turn.wait(Number(sleep[1]));
      const until = /^FAKE:until (.+)$/.exec(line)?.[1];
      while (until !== undefined && !turn.cancelled && !existsSync(until)) await turn.wait(25);
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
      const call = { ...turnBase, tool_name: name, tool_input: input, tool_use_id: randomUUID() };
      await options.hooks.run('PreToolUse', { ...call, hook_event_name: 'PreToolUse' }, name);
      options.say(`● ${name}`);
      await turn.wait(100);
      const response = { stdout: '', stderr: '', interrupted: false };
      await options.hooks.run(
        'PostToolUse',
        { ...call, hook_event_name: 'PostToolUse', tool_response: response },
        name,
      );
      takeInjected(String(turnBase['prompt_id'] ?? ''));
    }
  }

  /**
   * With a version: the request after a tool result takes in every prompt typed meanwhile, as a
   * message of its own (2.1.197 a system message, 2.1.332 a user text block); the transcript
   * records each as a `queued_command` attachment.
   *
   * @param {string} promptId
   */
  function takeInjected(promptId) {
    if (behaviour === undefined || waiting.length === 0) return;
    for (const item of waiting) {
      appendJsonLine(options.transcriptPath, {
        type: 'attachment',
        sessionId: options.sessionId,
        uuid: randomUUID(),
        timestamp: new Date().toISOString(),
        attachment: {
          type: 'queued_command',
          prompt: item.prompt,
          commandMode: 'prompt',
          origin: { kind: 'human' },
        },
      });
      const injected = behaviour.injected(item.prompt);
      recordModel(promptId, injected.role, [injected.text]);
      options.say(`❯ ${shorten(item.prompt)}`);
    }
    waiting = [];
    options.queueChanged?.([]);
  }

  /**
   * With a version: answers the first prompt, then, while prompts were queued behind a turn, one
   * merged turn of them.
   *
   * @param {{ prompt: string, model: string }[]} first
   */
  async function runVersioned(first) {
    let items = first;
    let submitted = false;
    for (;;) {
      await answer(
        items.map((item) => item.prompt),
        items.map((item) => item.model),
        { promptId: activeId, submitted },
      );
      if (waiting.length === 0) break;
      items = waiting;
      waiting = [];
      options.queueChanged?.([]);
      for (const item of items)
        options.echo(`› ${shorten(item.prompt)}  (${item.prompt.length} chars)`);
      submitted = behaviour?.submitWhenQueued ?? false;
      activeId = randomUUID();
      submittedHooks = Promise.resolve();
    }
    running = false;
  }

  return {
    /** @param {'startup' | 'resume'} source */
    start(source) {
      const payload = { ...base, hook_event_name: 'SessionStart', source };
      return enqueue(() => options.hooks.run('SessionStart', payload, source));
    },
    /**
     * @param {string} prompt
     * @param {string} [model] what the model gets of it (a collapsed paste wrapped), with a version
     */
    submit(prompt, model = prompt) {
      if (behaviour === undefined) {
        options.echo(`› ${shorten(prompt)}  (${prompt.length} chars)`);
        return enqueue(() => answer([prompt], [prompt], { submitted: false }));
      }
      if (running) {
        waiting.push({ prompt, model });
        options.queueChanged?.(waiting.map((item) => item.prompt));
        if (behaviour.submitWhenQueued) {
          const promptId = activeId;
          submittedHooks = submittedHooks.then(() =>
            options.hooks.run('UserPromptSubmit', {
              ...base,
              prompt_id: promptId,
              hook_event_name: 'UserPromptSubmit',
              prompt,
            }),
          );
        }
        return tail;
      }
      running = true;
      activeId = randomUUID();
      submittedHooks = new Promise((resolve) => (turnSubmitted = () => resolve(undefined)));
      options.echo(`› ${shorten(prompt)}  (${prompt.length} chars)`);
      return enqueue(() => runVersioned([{ prompt, model }]));
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
      // once: the next key already finds it there — unless prompts wait, which it then submits.
      if (waiting.length === 0) options.restore?.(activePrompt);
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
