import type { DoctorCheck } from './doctor-check.js';

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
