import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { findExecutable } from '../harness/find-executable.js';
import { needsRestart } from '../harness/needs-restart.js';
import { isStandingRecord } from '../standing/is-standing-record.js';
import type { StandingRecord, StandingSource } from '../standing/standing-types.js';
import { statePaths } from '../state/state-paths.js';
import type { HarnessFacts } from './check-harnesses.js';
import type { SessionCwdFacts } from './check-session-cwds.js';
import { parseJsonOrUndefined } from '../text/parse-json-or-undefined.js';

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
