import type { DoctorCheck } from '../../src/doctor/doctor-check.js';
import type { WebProbe } from '../../src/doctor/web-probe.js';

/** Each check as `status id`, so a table test reads as the lines doctor prints. */
export const statusOf = (checks: readonly DoctorCheck[]) =>
  checks.map((check) => `${check.status} ${check.id}`);

/** A probe that got an HTTP answer. */
export const answered = (status: number, body: unknown, scopes?: string[]): WebProbe => ({
  kind: 'answered',
  status,
  body,
  ...(scopes ? { scopes } : {}),
});

/** A probe that reached nobody. */
export const down: WebProbe = { kind: 'unreachable', error: 'connect ECONNREFUSED' };
