import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { checkBearer } from './check-bearer.js';
import { encodeReply, type EncodedReply, type Reply } from './encode-reply.js';
import { matchRoute } from './match-route.js';
import { parseJsonBody } from './parse-json-body.js';
import { readBody } from './read-body.js';
import { sessionTokenHeader, type Route } from './route.js';
import { toErrorResponse } from './to-error-response.js';

export interface RequestListenerOptions {
  readonly routes: readonly Route[];
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Given on the TCP listener only: every request there must carry it as a bearer token. */
  readonly bearerToken?: string;
  readonly newRequestId: () => string;
  /** Milliseconds from any fixed origin; only differences are used. */
  readonly now: () => number;
}

// How much of an oversized body is read and dropped before the 413, so a client still sending it
// sees the answer rather than a reset (see readBody).
const drainOversizedBytes = 16 * 1024 * 1024;
const drainOversizedMs = 2_000;

/** The whole request pipeline of one listener: auth, routing, body, handler, error mapping, log. */
export function createRequestListener(
  options: RequestListenerOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void answer(options, request, response);
  };
}

async function answer(
  options: RequestListenerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const requestId = options.newRequestId();
  const logger = options.logger.child({ requestId });
  const started = options.now();
  const method = request.method ?? '';
  // Only the path is logged: bodies, headers and query strings may hold secrets.
  const path = stripQuery(request.url ?? '');
  const gone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
    const ms = Math.round((options.now() - started) * 10) / 10;
    // A request the client abandoned got no status; saying 200 would be a lie.
    const outcome = response.writableFinished ? { status: response.statusCode } : { aborted: true };
    logger.info({ event: 'api.request', method, path, ...outcome, ms }, 'api.request');
  });

  let encoded: EncodedReply;
  try {
    encoded = encodeReply(
      await respond(options, request, requestId, logger, gone.signal),
      requestId,
    );
  } catch (thrown) {
    const mapped = toErrorResponse(thrown, requestId);
    // A LoopError is a refusal on purpose (the api.request line records it); a client that hung
    // up mid-body is no bug of ours; anything else is, and only the log may hold its text.
    if (!mapped.expected && request.socket.destroyed) {
      logger.debug({ err: thrown }, 'api request abandoned by the client');
    } else if (!mapped.expected) {
      logger.error({ err: thrown }, 'api request failed');
    }
    encoded = encodeReply(mapped, requestId);
  }
  if (response.destroyed) return;
  response.writeHead(encoded.status, encoded.headers);
  response.end(encoded.payload);
}

async function respond(
  options: RequestListenerOptions,
  request: IncomingMessage,
  requestId: string,
  logger: Logger,
  signal: AbortSignal,
): Promise<Reply> {
  if (options.bearerToken !== undefined) {
    if (!checkBearer(request.headers.authorization, options.bearerToken)) {
      return refuse(
        new LoopError(
          'unauthorized',
          'missing or wrong API token: send `Authorization: Bearer <THE_LOOP_API_TOKEN>` ' +
            '(the token `the-loop serve` was started with)',
        ),
        { headers: { 'www-authenticate': 'Bearer' }, close: true },
      );
    }
  }

  const method = request.method ?? '';
  const path = stripQuery(request.url ?? '');
  const match = matchRoute(options.routes, method, path);
  if ('error' in match) {
    if (match.error === 'method_not_allowed') {
      return refuse(
        new LoopError(
          'method_not_allowed',
          `${method} is not allowed on ${path}: use ${match.allow.join(' or ')}`,
        ),
        { headers: { allow: match.allow.join(', ') } },
      );
    }
    return refuse(
      new LoopError(
        'not_found',
        `no endpoint at ${path}: the API is described in schemas/openapi.yaml`,
      ),
    );
  }

  const read = await readBody(request, {
    maxBytes: options.maxBodyBytes,
    drainBytes: drainOversizedBytes,
    drainMs: drainOversizedMs,
  });
  if (read.kind === 'too_large') {
    return refuse(
      new LoopError(
        'payload_too_large',
        `the request body is over the ${options.maxBodyBytes}-byte limit: send a smaller body`,
      ),
      { close: true },
    );
  }
  const body = parseJsonBody(read.bytes, request.headers['content-type']);
  const token = request.headers[sessionTokenHeader];
  const wantsToken = match.route.auth === 'session' || match.route.sessionToken === 'optional';
  const sessionToken = wantsToken && typeof token === 'string' ? token : undefined;
  return match.route.handler({
    params: match.params,
    body,
    ...(sessionToken === undefined ? {} : { sessionToken }),
    requestId,
    signal,
    logger,
  });
}

function refuse(error: LoopError, extra: Pick<Reply, 'headers' | 'close'> = {}): Reply {
  return { status: error.status, body: { error: error.message, code: error.code }, ...extra };
}

function stripQuery(target: string): string {
  return target.replace(/[?#].*$/s, '');
}
