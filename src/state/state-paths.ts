import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { ensurePrivateDir } from './ensure-private-dir.js';

export interface StatePaths {
  readonly root: string;
  readonly controlSocket: string;
  readonly events: string;
  readonly standing: string;
  readonly workitems: string;
  readonly slackThreads: string;
  readonly inbox: string;
  readonly dedupe: string;
  readonly instanceFile: string;
  /** Per-session harness files (Claude Code settings with the-loop's hooks). */
  readonly harness: string;
  /** Texts on their way into a tmux buffer, each removed once loaded. */
  readonly tmuxScratch: string;
}

/** Where everything lives under the state root (docs/design.md §3.4); the one place these names appear. */
export function statePaths(root: string): StatePaths {
  return {
    root,
    controlSocket: path.join(root, 'control.sock'),
    events: path.join(root, 'events.jsonl'),
    standing: path.join(root, 'standing'),
    workitems: path.join(root, 'workitems'),
    slackThreads: path.join(root, 'slack', 'threads'),
    inbox: path.join(root, 'inbox'),
    dedupe: path.join(root, 'dedupe'),
    instanceFile: path.join(root, 'instance.json'),
    harness: path.join(root, 'harness'),
    tmuxScratch: path.join(root, 'tmux'),
  };
}

/**
 * Creates the state root (and missing parents) as 0700. A root that already exists is the user's
 * folder: if others can read it we say so, but we do not change its mode behind their back.
 */
export async function ensureStateRoot(root: string, logger: Logger): Promise<StatePaths> {
  const { created } = await ensurePrivateDir(root);
  if (!created) {
    const mode = (await stat(root)).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      logger.warn(
        { event: 'state.root_too_open', root, mode: `0${mode.toString(8)}` },
        `the state root can be read by other users: run \`chmod 700 ${root}\``,
      );
    }
  }
  return statePaths(root);
}
