import { LoopError } from '../errors.js';
import type { ApiResponse } from './route.js';

/* What the request pipeline answers: a reply or a thrown error, turned into bytes on the wire. */

/** What the request pipeline answers, before it becomes bytes on the wire. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Close the connection after answering instead of reading whatever the client still sends. */
  readonly close?: boolean;
}

export interface EncodedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Undefined for the statuses that carry no body (204, 304). */
  readonly payload: string | undefined;
}

/**
 * Turns a reply into status, headers and JSON text. Throws on what cannot be sent (a status
 * outside 200–599, a body JSON cannot hold) so the caller can answer 500 instead.
 */
export function encodeReply(reply: Reply, requestId: string): EncodedReply {
  if (!Number.isInteger(reply.status) || reply.status < 200 || reply.status > 599) {
    throw new Error(`a handler answered with HTTP status ${String(reply.status)}`);
  }
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...reply.headers,
    ...(reply.close === true ? { connection: 'close' } : {}),
  };
  if (reply.status === 204 || reply.status === 304)
    return { status: reply.status, headers, payload: undefined };
  const payload = JSON.stringify(reply.body ?? null);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(payload));
  return { status: reply.status, headers, payload };
}

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
