// The sessions the state knows of: their harness commands, their working folders, and whether
// their hooks settings are stale.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { findExecutable } from '../harness/find-executable.js';
import { needsRestart } from '../harness/needs-restart.js';
import {
  isStandingRecord,
  type StandingRecord,
  type StandingSource,
} from '../standing/standing-types.js';
import { statePaths } from '../state/state-paths.js';
import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';

interface KnownSession {
  readonly name: string;
  readonly source: StandingSource;
  readonly harness: string;
  readonly cwd: string;
}

/**
 * The standing sessions doctor knows of: the config's, and the ones created at runtime (their
 * records in the state root). Reading records needs no serve.
 */
export async function knownSessions(config: Config): Promise<KnownSession[]> {
  const declared = config.standing.sessions.map((session) => ({
    name: session.name,
    source: 'declared' as const,
    harness: session.harness,
    cwd: session.cwd,
  }));
  const created = (await readStandingRecords(statePaths(config.state.root).standing))
    .filter((record) => record.source === 'created')
    .filter((record) => !declared.some((each) => each.name === record.name))
    .map((record) => ({
      name: record.name,
      source: 'created' as const,
      harness: record.definition.harness,
      cwd: record.definition.cwd,
    }));
  return [...declared, ...created];
}

/** Running standing sessions whose record names hooks this the-loop no longer installs. */
export async function staleHookSessions(config: Config): Promise<string[]> {
  const records = await readStandingRecords(statePaths(config.state.root).standing);
  return records
    .filter((record) => needsRestart(record, config.harnesses[record.definition.harness]))
    .map((record) => record.name)
    .sort();
}

/**
 * The readable standing records, read directly rather than through the record store: the store
 * also sweeps stale temporary files, and doctor changes nothing. A damaged file is skipped here
 * as serve skips it.
 */
async function readStandingRecords(dir: string): Promise<StandingRecord[]> {
  // No standing folder yet: serve has not recorded a session, so none was created.
  const names = await readdir(dir).catch((): string[] => []);
  const records = await Promise.all(
    names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .map(async (name) => {
        // Gone since the listing (deleted meanwhile): nothing to know about it.
        const text = await readFile(path.join(dir, name), 'utf8').catch(() => undefined);
        if (text === undefined) return undefined;
        // A damaged record: serve reports it (state.record_corrupt); here it is simply not known.
        const value = parseJsonOrUndefined(text);
        return isStandingRecord(value) ? value : undefined;
      }),
  );
  return records.filter((record) => record !== undefined);
}

export async function gatherHarnessFacts(
  config: Config,
  sessions: readonly KnownSession[],
  env: NodeJS.ProcessEnv,
): Promise<HarnessFacts[]> {
  return Promise.all(
    Object.entries(config.harnesses).map(async ([name, harness]) => {
      const usedBy = [
        ...(config.defaults.harness === name ? ['defaults.harness'] : []),
        ...sessions
          .filter((session) => session.harness === name)
          .map((session) => `standing session ${session.name}`),
      ];
      const foundAt = await findExecutable(harness.command, {
        cwd: config.defaults.cwd,
        pathVariable: env['PATH'] ?? '',
      });
      return { name, command: harness.command, usedBy, ...(foundAt ? { foundAt } : {}) };
    }),
  );
}

export async function gatherCwdFacts(
  sessions: readonly KnownSession[],
): Promise<SessionCwdFacts[]> {
  return Promise.all(
    sessions.map(async (session) => {
      const kind = await stat(session.cwd).then(
        (stats) => (stats.isDirectory() ? ('directory' as const) : ('not-directory' as const)),
        () => 'missing' as const,
      );
      return { name: session.name, source: session.source, cwd: session.cwd, kind };
    }),
  );
}

export interface HarnessFacts {
  readonly name: string;
  readonly command: string;
  /** Where the program was found; undefined when it is not there. */
  readonly foundAt?: string;
  /** Who relies on it: `defaults.harness`, `standing session demo`, … */
  readonly usedBy: readonly string[];
}

/**
 * One line per configured harness. A missing program fails only when something would start it:
 * the built-in `claude` harness missing on a machine that runs only shells is worth a warning.
 */
export function checkHarnesses(harnesses: readonly HarnessFacts[]): DoctorCheck[] {
  return harnesses.map((harness) => {
    const id = `harness:${harness.name}`;
    if (harness.foundAt !== undefined) return ok(id, `${harness.command} is ${harness.foundAt}`);
    const missing = `${harness.command} is not on PATH`;
    if (harness.usedBy.length === 0) {
      return warn(
        id,
        `${missing} (nothing uses this harness)`,
        `install it before a session uses harness ${harness.name}`,
      );
    }
    return fail(
      id,
      `${missing}, and ${harness.usedBy.join(', ')} uses it`,
      `install ${harness.command}, put it on PATH, or point harnesses.${harness.name}.command at it`,
    );
  });
}

export interface SessionCwdFacts {
  readonly name: string;
  readonly source: StandingSource;
  readonly cwd: string;
  readonly kind: 'directory' | 'missing' | 'not-directory';
}

/** A standing session whose folder is gone cannot start; say which and how to fix it. */
export function checkSessionCwds(sessions: readonly SessionCwdFacts[]): DoctorCheck[] {
  if (sessions.length === 0) return [ok('cwd', 'no standing sessions to check')];
  return sessions.map((session) => {
    const id = `cwd:${session.name}`;
    if (session.kind === 'directory') return ok(id, `${session.name} runs in ${session.cwd}`);
    const what = session.kind === 'missing' ? 'does not exist' : 'is not a folder';
    const remedy =
      session.source === 'declared'
        ? `create ${session.cwd} or change the cwd of standing session ${session.name} in the config`
        : `create ${session.cwd}, or \`the-loop standing delete ${session.name}\` and create it again`;
    return fail(
      id,
      `the folder of standing session ${session.name}, ${session.cwd}, ${what}`,
      remedy,
    );
  });
}

/**
 * Running standing sessions started with hooks this the-loop no longer installs (an upgrade, a new
 * hook row): their agents still call the old commands, so replies, progress or permission requests
 * may not reach serve until each is restarted.
 */
export function checkSessionHooks(stale: readonly string[]): DoctorCheck {
  if (stale.length === 0) return ok('hooks', 'every running session runs the current hooks');
  const names = stale.map((name) => `\`${name}\``).join(', ');
  const first = stale[0] ?? '';
  return warn(
    'hooks',
    `${stale.length} running session(s) use hooks an older the-loop installed: ${names}`,
    `restart each, e.g. \`the-loop standing restart ${first}\` (its conversation is resumed)`,
  );
}
