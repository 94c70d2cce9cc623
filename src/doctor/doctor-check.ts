// One line of `the-loop doctor` (ok, warn or fail, with a remedy), and the report made of them.
export type CheckStatus = 'ok' | 'warn' | 'fail';

/**
 * One line of `the-loop doctor` (docs/design.md §16, §17): what was found and, unless it is fine, what to
 * do about it. `id` is stable (tests and scripts read it); `message` and `remedy` are for people.
 */
export interface DoctorCheck {
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
  /** "" when there is nothing to do. */
  readonly remedy: string;
}

export const ok = (id: string, message: string): DoctorCheck => ({
  id,
  status: 'ok',
  message,
  remedy: '',
});

export const warn = (id: string, message: string, remedy: string): DoctorCheck => ({
  id,
  status: 'warn',
  message,
  remedy,
});

export const fail = (id: string, message: string, remedy: string): DoctorCheck => ({
  id,
  status: 'fail',
  message,
  remedy,
});

export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly DoctorCheck[];
}

/** ok means nothing failed; warnings are things to know, not to fix now. */
export function doctorReport(checks: readonly DoctorCheck[]): DoctorReport {
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}

/** `ok|warn|fail  <id>  <message> — <remedy>`, one line each (no remedy on a line with none). */
export function formatDoctorLines(checks: readonly DoctorCheck[]): string {
  return checks
    .map((check) => {
      const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');
      const remedy = check.remedy === '' ? '' : ` — ${oneLine(check.remedy)}`;
      return `${check.status}  ${check.id}  ${oneLine(check.message)}${remedy}`;
    })
    .join('\n');
}
