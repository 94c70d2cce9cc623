/**
 * Every error the-loop reports to a person carries a stable `code` (branch and assert on it) and a
 * message that names the remedy (show it). The HTTP status follows from the code, so the control
 * plane, the CLI and the surfaces agree on what each failure means.
 */
export const errorCodes = {
  bad_request: 400,
  invalid_name: 400,
  invalid_ref: 400,
  empty_message: 400,
  declared_session: 400,
  harness_unknown: 400,
  cwd_not_allowed: 400,
  spawn_failed: 400,
  config_invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  session_unknown: 404,
  session_not_running: 404,
  session_exited: 409,
  /** A session a config reload removed from `standing.sessions`; it is stopped, not started. */
  session_undeclared: 409,
  method_not_allowed: 405,
  name_taken: 409,
  foreign_session: 409,
  conflict: 409,
  payload_too_large: 413,
  tmux_unavailable: 503,
  serve_not_running: 503,
  delivery_failed: 500,
  slack_failed: 502,
  github_failed: 502,
  file_too_large: 413,
  /** A file an agent posts holds the value of one of the-loop's own secrets (docs/design.md §18). */
  file_holds_secret: 400,
  file_download_failed: 502,
  state_corrupt: 500,
  /** A session's record could not be written (a full disk, a read-only folder). */
  record_write_failed: 500,
  /** A running session of ours whose record has no token: its hooks would not be accepted. */
  session_token_lost: 409,
  delivery_cancelled: 409,
  /** An agent said something to its own session (docs/design.md §20). */
  self_message: 400,
  /** An agent sent more than `agents.maxMessagesPerMinute` to other sessions. */
  rate_limited: 429,
  /** Another live instance of the fleet holds this instance's name (docs/design.md §21). */
  fleet_name_taken: 409,
  /** The fleet's NATS server cannot be reached. */
  fleet_down: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export class LoopError extends Error {
  override readonly name = 'LoopError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

export function isLoopError(value: unknown): value is LoopError {
  return value instanceof LoopError;
}

/** At the edges, anything thrown becomes a LoopError; unknown failures keep their message. */
export function asLoopError(value: unknown): LoopError {
  if (value instanceof LoopError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new LoopError('internal', message);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCodes, value);
}

/** The `code` of a Node system error (`ENOENT`, `EEXIST`, …), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
