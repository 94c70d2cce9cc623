// @ts-check
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

const STDERR_LIMIT = 4096;
const STDOUT_LIMIT = 1024 * 1024;

/**
 * @typedef {{ hookEvent: string, command: string, exitCode: number | null,
 *   signal: string | null, timedOut: boolean, stderr: string, error?: string }} HookFailure
 * @typedef {{ command: string, timeoutMs: number }} HookCommand
 * @typedef {{ hooks: Record<string, unknown>, cwd: string, env: NodeJS.ProcessEnv,
 *   timeoutMs: number, onFailure: (failure: HookFailure) => void }} HookRunnerOptions
 */

/**
 * Runs the command hooks of Claude Code settings as Claude does: each command through
 * `/bin/sh -c` with the payload as JSON on stdin, in the agent's cwd with its env. The commands of
 * one event run one after another; a command that fails or outlives its timeout is reported and
 * (with its whole process group) killed, never allowed to stop the agent.
 *
 * @param {HookRunnerOptions} options
 */
export function createHookRunner(options) {
  /** Process groups of the hooks still running, so an exiting agent leaves no orphans. */
  /** @type {Set<number>} */
  const running = new Set();
  return {
    /**
     * @param {string} event
     * @param {Record<string, unknown>} payload
     * @param {string} [matchValue] what the groups' `matcher` is tested against, for events that have one
     * @returns {Promise<void>}
     */
    async run(event, payload, matchValue) {
      const input = JSON.stringify(payload);
      for (const hook of commandsFor(options, event, matchValue)) {
        await runCommand(options, event, hook, input, running);
      }
    },
    /**
     * Runs the hooks of an event that answers (PermissionRequest) and returns the JSON the last
     * one printed on stdout, or undefined when none did. `cancel` kills them as Claude Code does
     * when a person answers its own dialog first.
     *
     * @param {string} event
     * @param {Record<string, unknown>} payload
     * @param {string} [matchValue]
     * @returns {{ answer: Promise<Record<string, unknown> | undefined>, cancel: () => void }}
     */
    ask(event, payload, matchValue) {
      const input = JSON.stringify(payload);
      /** @type {Set<number>} */
      const mine = new Set();
      let cancelled = false;
      const answer = (async () => {
        /** @type {Record<string, unknown> | undefined} */
        let last;
        for (const hook of commandsFor(options, event, matchValue)) {
          if (cancelled) break;
          const out = await runCommand(options, event, hook, input, running, mine);
          const parsed = parseAnswer(out);
          if (parsed !== undefined) last = parsed;
        }
        return cancelled ? undefined : last;
      })();
      return {
        answer,
        cancel() {
          cancelled = true;
          for (const pid of mine) killGroup(pid);
        },
      };
    },
    /** Kills every hook still running. */
    stop() {
      for (const pid of running) killGroup(pid);
    },
  };
}

/**
 * @param {HookRunnerOptions} options
 * @param {string} event
 * @param {string | undefined} matchValue
 * @returns {HookCommand[]}
 */
function commandsFor(options, event, matchValue) {
  const groups = options.hooks[event];
  if (!Array.isArray(groups)) return [];
  /** @type {HookCommand[]} */
  const commands = [];
  for (const group of groups) {
    if (!isRecord(group) || !matches(group.matcher, matchValue)) continue;
    if (!Array.isArray(group.hooks)) continue;
    for (const hook of group.hooks) {
      if (!isRecord(hook) || hook.type !== 'command' || typeof hook.command !== 'string') continue;
      const seconds = typeof hook.timeout === 'number' && hook.timeout > 0 ? hook.timeout : 0;
      commands.push({ command: hook.command, timeoutMs: seconds * 1000 || options.timeoutMs });
    }
  }
  return commands;
}

/**
 * @param {unknown} matcher
 * @param {string | undefined} value
 */
function matches(matcher, value) {
  if (value === undefined || matcher === undefined || matcher === '' || matcher === '*')
    return true;
  if (typeof matcher !== 'string') return false;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch (error) {
    // Claude skips a group whose matcher is not a valid pattern; so does the fake.
    if (error instanceof SyntaxError) return false;
    throw error;
  }
}

/**
 * @param {HookRunnerOptions} options
 * @param {string} event
 * @param {HookCommand} hook
 * @param {string} input
 * @param {Set<number>} running
 * @param {Set<number>} [capture] given: stdout is read (and returned) and the pid is kept here too
 * @returns {Promise<string>}
 */
function runCommand(options, event, hook, input, running, capture) {
  return new Promise((resolve) => {
    // A process group of its own lets a timeout kill whatever the command started, too.
    const child = spawn('/bin/sh', ['-c', hook.command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', capture === undefined ? 'ignore' : 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (/** @type {string} */ chunk) => {
      if (stdout.length < STDOUT_LIMIT) stdout += chunk;
    });
    if (capture !== undefined && child.pid !== undefined) capture.add(child.pid);
    let stderr = '';
    let timedOut = false;
    let settled = false;
    /** @param {Partial<HookFailure>} failure */
    const settle = (failure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      if (child.pid !== undefined) capture?.delete(child.pid);
      const failed = failure.error !== undefined || timedOut || failure.exitCode !== 0;
      if (failed) {
        options.onFailure({
          hookEvent: event,
          command: hook.command,
          exitCode: failure.exitCode ?? null,
          signal: failure.signal ?? null,
          timedOut,
          stderr,
          ...(failure.error === undefined ? {} : { error: failure.error }),
        });
      }
      resolve(stdout);
    };
    if (child.pid !== undefined) running.add(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, hook.timeoutMs);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (/** @type {string} */ chunk) => {
      if (stderr.length < STDERR_LIMIT) stderr = (stderr + chunk).slice(0, STDERR_LIMIT);
    });
    child.stdin?.on('error', (error) => {
      // A hook may exit without reading its payload; that is its choice, not a failure.
      if (!('code' in error) || error.code !== 'EPIPE') stderr += `stdin: ${error.message}\n`;
    });
    child.on('error', (error) => settle({ error: error.message }));
    child.on('close', (exitCode, signal) => settle({ exitCode, signal }));
    child.stdin?.end(input);
  });
}

/**
 * A hook's answer as Claude Code reads it: its stdout as one JSON object, or nothing.
 *
 * @param {string} text
 * @returns {Record<string, unknown> | undefined}
 */
function parseAnswer(text) {
  if (text.trim() === '') return undefined;
  try {
    /** @type {unknown} */
    const value = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** @param {number | undefined} pid */
function killGroup(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    // The group may have exited between the timeout and the kill.
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
