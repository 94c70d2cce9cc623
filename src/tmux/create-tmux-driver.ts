import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { classifyTmuxFailure } from './classify-tmux-failure.js';
import { assertTargetName, paneTarget } from './exact-target.js';
import { parseTmuxVersion, supportsSessionEnv, type TmuxVersion } from './parse-tmux-version.js';
import { buildSpawnArgs } from './build-spawn-args.js';
import { parseSessionLine, sessionFormat } from './parse-session-line.js';
import type { SessionInfo, SessionListing, TmuxDriver } from './tmux-driver.js';
import type { TmuxResult, TmuxRunner } from './tmux-runner.js';
import { tmuxAttachCommand } from './attach-command.js';

export interface TmuxDriverOptions {
  readonly runner: TmuxRunner;
  readonly logger: Logger;
  /** Where to send signals; a parameter so tests can see them. */
  readonly signal?: (pid: number, signal: NodeJS.Signals) => void;
  /** `tmux.socket` ("" or unset = the default server), for the attach line in refusals (§17). */
  readonly socket?: string;
}

const notOursMarker = 'the-loop:not-ours';
const keyPattern = /^[A-Za-z0-9-]{1,32}$/;

export function createTmuxDriver(options: TmuxDriverOptions): TmuxDriver {
  const { runner, logger, socket } = options;
  const signal = options.signal ?? ((pid, name) => process.kill(pid, name));
  let versionPromise: Promise<TmuxVersion> | undefined;

  const version = (): Promise<TmuxVersion> => {
    versionPromise ??= runner.run(['-V']).then((result) => {
      if (result.exitCode !== 0) {
        versionPromise = undefined;
        throw unavailable(result);
      }
      return parseTmuxVersion(result.stdout);
    });
    return versionPromise;
  };

  /**
   * A pane that just died is marked dead a moment before tmux has reaped its process and knows
   * the exit status; such a pane is asked about again for up to 3 s (a loaded machine reaps
   * late), so the status is not lost. tmux 3.3a also misses a SIGCHLD, often (from one exit in
   * eight to most of them here): the process stays a zombie and the status never comes. Any child of the
   * server that exits makes it reap them all, so a `run-shell -b true` goes first.
   */
  const probe = async (name: string): Promise<SessionInfo> => {
    let info = await probeOnce(name);
    for (
      let tries = 0;
      info.state === 'dead' && info.deadStatus === undefined && tries < 60;
      tries += 1
    ) {
      // In the background: a run-shell that waited for its own child could miss it the same way.
      if (tries % 20 === 0) await runner.run(['run-shell', '-b', 'true']);
      await delay(50);
      info = await probeOnce(name);
    }
    return info;
  };

  const probeOnce = async (name: string): Promise<SessionInfo> => {
    assertTargetName(name);
    const result = await runner.run(['list-panes', '-t', paneTarget(name), '-F', sessionFormat]);
    if (result.exitCode !== 0) {
      const state = result.failedToRun ? 'unknown' : classifyTmuxFailure(result.stderr);
      return { name, state, owner: '' };
    }
    const info = parseSessionLine(result.stdout.split('\n')[0] ?? '');
    // `=name:` cannot match another session, but a mismatch here would mean it did: never act on it.
    if (!info || info.name !== name) return { name, state: 'unknown', owner: '' };
    return info;
  };

  /**
   * Runs `command` only when the session carries our tag, in the same tmux call: there is no
   * moment between the check and the act in which another session could take the name.
   */
  const runIfOurs = async (
    name: string,
    owner: string,
    command: string,
    options: { prefix?: readonly string[]; input?: string; live?: boolean } = {},
  ): Promise<TmuxResult> => {
    assertTargetName(name);
    if (!/^[A-Za-z0-9-]{1,64}$/.test(owner)) throw new Error('owner id must be a plain token');
    const { prefix = [], input, live = false } = options;
    // if-shell falls back to no target when `=name:` is missing instead of failing, so the check
    // names the session too; a miss is then told apart from a foreign session by a probe.
    const ours = `#{&&:#{==:#{session_name},${name}},#{==:#{@the-loop-owner},${owner}}}`;
    // tmux 3.3 crashes its whole server when a paste (or keys) reach a dead pane (fixed in 3.4):
    // an act that types requires a live pane in the same call, so no exit can slip in between.
    const check = live ? `#{&&:${ours},#{==:#{pane_dead},0}}` : ours;
    const args = [
      ...prefix,
      'if-shell',
      '-F',
      '-t',
      paneTarget(name),
      check,
      command,
      `display-message -p ${notOursMarker}`,
    ];
    const result = await runner.run(args, input);
    if (result.exitCode !== 0) {
      const failure = result.failedToRun ? 'unknown' : classifyTmuxFailure(result.stderr);
      if (failure === 'absent') throw notRunning(name);
      throw unavailable(result);
    }
    if (result.stdout.includes(notOursMarker)) {
      const info = await probe(name);
      if (info.state === 'absent') throw notRunning(name);
      if (info.state === 'unknown')
        throw unavailableMessage(`tmux gave no answer about \`${name}\``);
      if (info.owner === owner && info.state === 'dead') throw exited(name, info.deadStatus);
      if (info.owner === owner) {
        // Ours and live now, though the check said otherwise: it was respawned in between.
        throw unavailableMessage(
          `tmux session \`${name}\` changed while the-loop acted on it; try again`,
        );
      }
      throw new LoopError(
        'foreign_session',
        `tmux session \`${name}\` is not owned by this instance; the-loop will not touch it ` +
          `(inspect it with \`${tmuxAttachCommand(name, socket, { readOnly: true })}\`)`,
        { target: name },
      );
    }
    return result;
  };

  const listSessions = async (): Promise<SessionListing> => {
    const result = await runner.run(['list-sessions', '-F', sessionFormat]);
    if (result.exitCode !== 0) {
      if (!result.failedToRun && classifyTmuxFailure(result.stderr) === 'absent') {
        return { ok: true, sessions: new Map() };
      }
      return { ok: false, reason: result.stderr.trim() || 'tmux did not answer' };
    }
    const sessions = new Map<string, SessionInfo>();
    for (const line of result.stdout.split('\n')) {
      const info = parseSessionLine(line);
      if (info) sessions.set(info.name, info);
    }
    return { ok: true, sessions };
  };

  const isGone = async (name: string): Promise<boolean> => {
    const info = await probe(name);
    return info.state === 'absent' || info.state === 'dead';
  };

  const sendSignal = (pid: number, name: NodeJS.Signals): void => {
    try {
      signal(-pid, name);
    } catch (error) {
      // ESRCH: the group is already gone, which is the outcome we wanted.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };

  const waitUntilGone = async (name: string, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await isGone(name)) return true;
      if (Date.now() >= deadline) return false;
      await delay(25);
    }
  };

  return {
    version,
    probe,
    listSessions,

    async globalEnvironmentNames() {
      const result = await runner.run(['show-environment', '-g']);
      if (result.exitCode !== 0) return [];
      // `NAME=value` for a variable, `-NAME` for one removed from it.
      return result.stdout
        .split('\n')
        .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined);
    },

    async spawn(spec) {
      assertTargetName(spec.name);
      const args = buildSpawnArgs(spec, supportsSessionEnv(await version()));
      const result = await runner.run(args);
      if (result.exitCode !== 0) {
        if (/duplicate session/.test(result.stderr)) {
          throw new LoopError('conflict', `a tmux session named \`${spec.name}\` already exists`, {
            target: spec.name,
          });
        }
        throw new LoopError(
          'spawn_failed',
          `tmux could not start \`${spec.name}\`: ${result.stderr.trim() || 'no answer'}`,
          { target: spec.name },
        );
      }
      logger.debug({ event: 'tmux.spawned', target: spec.name }, 'tmux session spawned');
    },

    async paste(name, owner, text) {
      const buffer = `the-loop-${randomUUID()}`;
      const paste = `paste-buffer -p -d -r -b ${buffer} -t '${paneTarget(name)}'`;
      try {
        await runIfOurs(name, owner, paste, {
          prefix: ['load-buffer', '-b', buffer, '-', ';'],
          input: text,
          live: true,
        });
      } catch (error) {
        // A refused or failed paste leaves the buffer behind; `-d` deletes it only after pasting.
        await runner.run(['delete-buffer', '-b', buffer]);
        throw error;
      }
    },

    async sendKeys(name, owner, keys) {
      for (const key of keys) {
        if (!keyPattern.test(key)) throw new Error(`refusing tmux key name ${JSON.stringify(key)}`);
      }
      await runIfOurs(name, owner, `send-keys -t '${paneTarget(name)}' ${keys.join(' ')}`, {
        live: true,
      });
    },

    async capture(name) {
      assertTargetName(name);
      const result = await runner.run(['capture-pane', '-p', '-t', paneTarget(name)]);
      if (result.exitCode !== 0) throw notRunning(name);
      return result.stdout;
    },

    async attachedClients(name) {
      assertTargetName(name);
      const result = await runner.run([
        'display-message',
        '-p',
        '-t',
        paneTarget(name),
        '#{session_attached}',
      ]);
      if (result.exitCode !== 0) throw notRunning(name);
      return Number(result.stdout.trim()) || 0;
    },

    async terminate(name, owner, { graceMs }) {
      const info = await probe(name);
      if (info.state === 'absent') return;
      if (info.state === 'unknown')
        throw unavailableMessage(`tmux gave no answer about \`${name}\``);
      if (info.owner !== owner) {
        throw new LoopError(
          'foreign_session',
          `tmux session \`${name}\` is not owned by this instance; it was not signalled`,
          { target: name },
        );
      }
      if (info.state === 'live' && info.panePid) {
        sendSignal(info.panePid, 'SIGTERM');
        if (!(await waitUntilGone(name, graceMs / 2))) {
          // Interactive shells ignore SIGTERM; a hang-up is what a closing terminal sends them.
          sendSignal(info.panePid, 'SIGHUP');
          if (!(await waitUntilGone(name, graceMs / 2))) sendSignal(info.panePid, 'SIGKILL');
        }
      }
      await killIfOurs(name, owner);
      logger.debug({ event: 'tmux.terminated', target: name }, 'tmux session terminated');
    },

    async clearDead(name, owner) {
      await killIfOurs(name, owner);
    },
  };

  async function killIfOurs(name: string, owner: string): Promise<void> {
    try {
      await runIfOurs(name, owner, `kill-session -t '=${name}'`);
    } catch (error) {
      if (error instanceof LoopError && error.code === 'session_not_running') return;
      throw error;
    }
  }
}

function notRunning(name: string): LoopError {
  return new LoopError('session_not_running', `tmux session \`${name}\` is not running`, {
    target: name,
  });
}

function exited(name: string, status: number | undefined): LoopError {
  const how = status === undefined ? '' : ` (status ${status})`;
  return new LoopError('session_exited', `tmux session \`${name}\` has exited${how}`, {
    target: name,
    ...(status === undefined ? {} : { exitStatus: status }),
  });
}

function unavailable(result: TmuxResult): LoopError {
  // A crashed or killed server is not a missing program: only a missing binary says "install".
  if (result.missing) {
    return unavailableMessage('tmux is not installed or not on PATH; install tmux and try again');
  }
  return unavailableMessage(
    `tmux did not answer (${result.stderr.trim() || `exit ${result.exitCode}`}); ` +
      'check that its server is running (`tmux ls`) and try again',
  );
}

function unavailableMessage(message: string): LoopError {
  return new LoopError('tmux_unavailable', message);
}
