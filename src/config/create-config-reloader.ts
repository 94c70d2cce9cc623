import { asLoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { isConfigError, type ConfigIssue } from './config-error.js';
import { diffConfig, reloadedConfig } from './diff-config.js';
import type { LiveConfig } from './live-config.js';
import type { Config } from './types.js';

/** What a reload did (`POST /api/v1/reload`, `the-loop reload`, SIGHUP). */
export interface ReloadAnswer {
  /** Changed keys now in effect. */
  readonly applied: readonly string[];
  /** Changed keys that keep their running value until serve restarts. */
  readonly needsRestart: readonly string[];
  readonly sessions: {
    /** Declared sessions the file added. */
    readonly added: readonly string[];
    /** Declared sessions the file no longer has; they run on, listed as `undeclared`. */
    readonly undeclared: readonly string[];
    /** Added sessions started (their `autoStart` and `standing.autoStart` are on). */
    readonly started: readonly SessionStart[];
  };
}

export interface SessionStart {
  readonly name: string;
  readonly outcome?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The last reload, as `status` shows it. */
export type ReloadRecord =
  | { readonly ok: true; readonly at: string; readonly applied: readonly string[] }
  | {
      readonly ok: false;
      readonly at: string;
      readonly error: string;
      readonly keys: readonly string[];
    };

export interface ConfigReloader {
  /** Re-reads the file; throws its ConfigError (nothing changed) when the file is refused. */
  reload(trigger: 'signal' | 'api'): Promise<ReloadAnswer>;
  /** The last reload since serve started; undefined before the first. */
  last(): ReloadRecord | undefined;
}

export interface ConfigReloaderOptions {
  readonly live: LiveConfig;
  /** Reads and resolves the config file serve started with. */
  readonly load: () => Promise<Config>;
  readonly events: { record(event: string, fields?: Record<string, unknown>): void };
  readonly logger: Logger;
  /** Starts one standing session (the standing service's `start`). */
  readonly start: (name: string) => Promise<{ readonly outcome: string }>;
  readonly clock?: () => Date;
}

/**
 * Reloads the config (docs/design.md §22): a refused file changes nothing; a valid one replaces
 * the live config with its live keys (the restart keys keep their running values), then starts
 * the declared sessions it added. Reloads run one at a time.
 */
export function createConfigReloader(options: ConfigReloaderOptions): ConfigReloader {
  const { live, events, logger } = options;
  const clock = options.clock ?? (() => new Date());
  let last: ReloadRecord | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const reloadNow = async (trigger: 'signal' | 'api'): Promise<ReloadAnswer> => {
    let next: Config;
    try {
      next = await options.load();
    } catch (error) {
      const issues: readonly ConfigIssue[] = isConfigError(error)
        ? error.issues
        : [{ path: '', code: 'file_unreadable', message: asLoopError(error).message }];
      const keys = issues.map((issue) => issue.path).filter((path) => path !== '');
      const text = issues
        .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
        .join('; ');
      last = { ok: false, at: clock().toISOString(), error: text, keys };
      events.record('config.reload_failed', { error: text, keys, trigger });
      logger.warn(
        { event: 'config.reload_failed', keys, trigger },
        `config reload refused, nothing changed: ${text}`,
      );
      throw error;
    }
    const running = live.current();
    const diff = diffConfig(running, next);
    const before = new Set(running.standing.sessions.map((session) => session.name));
    const after = new Set(next.standing.sessions.map((session) => session.name));
    const added = [...after].filter((name) => !before.has(name));
    const undeclared = [...before].filter((name) => !after.has(name));
    live.replace(reloadedConfig(running, next));
    last = { ok: true, at: clock().toISOString(), applied: diff.applied };
    events.record('config.reloaded', {
      changed: diff.applied,
      needsRestart: diff.needsRestart,
      trigger,
    });
    logger.info(
      { event: 'config.reloaded', changed: diff.applied, needsRestart: diff.needsRestart, trigger },
      diff.changed.length === 0 ? 'config reloaded: nothing changed' : 'config reloaded',
    );
    const current = live.current();
    const toStart = current.standing.autoStart
      ? current.standing.sessions.filter((s) => added.includes(s.name) && s.autoStart)
      : [];
    const started = await Promise.all(
      toStart.map(async ({ name }): Promise<SessionStart> => {
        try {
          return { name, outcome: (await options.start(name)).outcome };
        } catch (error) {
          const failure = asLoopError(error);
          logger.warn(
            { event: 'standing.autostart_failed', name, code: failure.code },
            failure.message,
          );
          return { name, error: { code: failure.code, message: failure.message } };
        }
      }),
    );
    return {
      applied: diff.applied,
      needsRestart: diff.needsRestart,
      sessions: { added, undeclared, started },
    };
  };

  return {
    reload(trigger) {
      const run = queue.then(() => reloadNow(trigger));
      queue = run.catch(() => undefined);
      return run;
    },
    last: () => last,
  };
}
