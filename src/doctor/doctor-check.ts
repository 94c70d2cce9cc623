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
