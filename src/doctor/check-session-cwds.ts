import type { StandingSource } from '../standing/standing-types.js';
import { fail, ok, type DoctorCheck } from './doctor-check.js';

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
