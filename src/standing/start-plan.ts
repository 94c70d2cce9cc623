// What starting a standing session needs: a cwd under the allowed roots, a readable brief, the
// harness, and the plan the shared session lifecycle follows (docs/design.md §5).
import path from 'node:path';
import { realpath, readFile, stat } from 'node:fs/promises';
import type { Config } from '../config/types.js';
import { LoopError } from '../errors.js';
import type { StandingDefinition, StandingSource } from './standing-types.js';
import { bootPrompt, standingBootDirective } from '../harness/boot-directive.js';
import { standingTarget } from '../refs.js';
import type { StartPlan } from '../sessions/session-lifecycle.js';
import type { ResolvedStanding } from './resolve-definitions.js';
import type { StandingRecord } from './standing-types.js';

/** True when `candidate` is `root` or below it (both absolute, already resolved). */
export function isPathInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The real path (after symlinks) of a created session's cwd, when it is under
 * `standing.allowedRoots`. Asked at create and again at every start: a folder under a root can
 * later be replaced by a symlink to anywhere, and the session must not follow it there.
 */
export async function allowedCwd(cwd: string, config: Config): Promise<string> {
  const real = await realpath(cwd).catch(() => undefined);
  if (!real) {
    throw new LoopError(
      'cwd_not_allowed',
      `cwd \`${cwd}\` does not exist; create it or pick another folder`,
    );
  }
  const roots = await Promise.all(
    config.standing.allowedRoots.map((root) => realpath(root).catch(() => root)),
  );
  if (!roots.some((root) => isPathInside(real, root))) {
    const shown = real === cwd ? `\`${cwd}\`` : `\`${cwd}\` (really \`${real}\`)`;
    throw new LoopError(
      'cwd_not_allowed',
      `cwd ${shown} is outside standing.allowedRoots (${config.standing.allowedRoots.join(', ') || 'none'}); ` +
        'pick a folder under one of them or add a root to the config',
    );
  }
  return real;
}

export interface Startable {
  /** The configured brief: `prompt`, or the contents of `promptFile`. */
  readonly brief?: string;
  /** Where to start it: for a created session, the real path checked against allowedRoots. */
  readonly cwd: string;
}

/**
 * Everything a start needs that can be checked without touching tmux: the harness is configured,
 * the cwd is a folder (for a created session: really under allowedRoots, checked at every start),
 * the prompt file can be read. `restart` runs this before it stops anything.
 */
export async function checkStartable(
  definition: StandingDefinition,
  source: StandingSource,
  config: Config,
): Promise<Startable> {
  if (!config.harnesses[definition.harness]) {
    throw new LoopError(
      'harness_unknown',
      `session \`${definition.name}\` uses harness \`${definition.harness}\`, which is not configured; ` +
        `configured harnesses: ${Object.keys(config.harnesses).join(', ')}`,
    );
  }
  const isDir = await stat(definition.cwd).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new LoopError(
      'spawn_failed',
      `session \`${definition.name}\` cannot start: its cwd \`${definition.cwd}\` is not a folder; ` +
        'create it or change the session’s cwd',
      { path: definition.cwd },
    );
  }
  // Declared sessions come from the config, which allowedRoots does not limit (docs/design.md §3.3).
  const cwd = source === 'created' ? await allowedCwd(definition.cwd, config) : definition.cwd;
  if (definition.promptFile) {
    const brief = await readFile(definition.promptFile, 'utf8').catch(() => undefined);
    if (brief === undefined) {
      throw new LoopError(
        'spawn_failed',
        `session \`${definition.name}\` cannot start: its promptFile \`${definition.promptFile}\` ` +
          'cannot be read; create it or fix the path',
        { path: definition.promptFile },
      );
    }
    return { brief, cwd };
  }
  return definition.prompt ? { brief: definition.prompt, cwd } : { cwd };
}

/**
 * How a standing session starts, for the shared lifecycle: check it can (the harness, the cwd,
 * the brief), boot it with the standing directive, and the record of it running (a new
 * conversation, no old exit). `base` is the record of a session that has none yet.
 */
export function standingStartPlan(
  resolved: ResolvedStanding,
  config: Config,
  base: () => StandingRecord,
): StartPlan<StandingRecord> {
  const { name } = resolved.definition;
  return {
    async prepare() {
      const { brief, cwd } = await checkStartable(resolved.definition, resolved.source, config);
      return {
        cwd,
        harnessName: resolved.definition.harness,
        args: resolved.definition.args,
        bootPrompt: () =>
          bootPrompt(
            standingBootDirective({
              name,
              tmuxName: standingTarget(name),
              tmuxSocket: config.tmux.socket,
              instance: config.instance.name,
              slackThread: resolved.definition.slack !== false && config.slack.enabled,
            }),
            brief,
          ),
      };
    },
    running(record, started, startedAt) {
      const {
        conversationId: _dropped,
        exitStatus: _old,
        exitedAt: _gone,
        hooksVersion: _oldHooks,
        ...rest
      } = record ?? base();
      return {
        ...rest,
        definition: resolved.definition,
        status: 'running',
        sessionToken: started.sessionToken,
        startedAt,
        ...(started.conversationId ? { conversationId: started.conversationId } : {}),
        ...(started.hooksVersion ? { hooksVersion: started.hooksVersion } : {}),
      };
    },
  };
}
