import { LoopError } from '../errors.js';
import type { ApiResponse } from './route.js';

export interface ErrorBody {
  readonly error: string;
  readonly code: string;
}

/**
 * What the control plane answers for a thrown value. A LoopError was written for people, so its
 * status, code and message go out as they are; anything else is a bug whose text may hold paths
 * or internals, so the caller logs it and the client gets a generic message naming the log.
 */
export function toErrorResponse(
  thrown: unknown,
  requestId: string,
): ApiResponse & { readonly body: ErrorBody; readonly expected: boolean } {
  if (thrown instanceof LoopError) {
    return {
      status: thrown.status,
      body: { error: thrown.message, code: thrown.code },
      expected: true,
    };
  }
  return {
    status: 500,
    body: {
      error: `internal error in \`the-loop serve\`; see its log for request ${requestId}`,
      code: 'internal',
    },
    expected: false,
  };
}
