import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopError } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { readBody } from '../http/read-body.js';
import { checkBearer, parseJsonBody } from './read-request.js';
import { encodeReply, toErrorResponse, type EncodedReply, type Reply } from './reply.js';
import {
  matchRoute,
  sessionTokenHeader,
  type Route,
  type StreamBody,
  type StreamSink,
} from './route.js';

export interface RequestListenerOptions {
  readonly routes: readonly Route[];
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Given on the TCP listener only: every request there must carry it as a bearer token. */
  readonly bearerToken?: string;
  readonly newRequestId: () => string;
  /** Milliseconds from any fixed origin; only differences are used. */
  readonly now: () => number;
  /** Aborted when the server stops: streaming responses end at once rather than at the grace. */
  readonly closing?: AbortSignal;
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
    const reply = await respond(options, request, requestId, logger, gone.signal);
    if (reply.stream !== undefined && reply.status === 200) {
      const { closing } = options;
      await sendStream(reply.stream, response, { requestId, logger, gone: gone.signal, closing });
      return;
    }
    encoded = encodeReply(reply, requestId);
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
): Promise<Reply & { readonly stream?: StreamBody }> {
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

  if (match.route.refusesSessions && request.headers[sessionTokenHeader] !== undefined) {
    return refuse(
      new LoopError(
        'forbidden',
        `${method} ${path} is for people, not sessions: an agent never decides permission ` +
          'requests (docs/security.md)',
      ),
    );
  }
  const maxBytes = match.route.maxBodyBytes ?? options.maxBodyBytes;
  const read = await readBody(request, {
    maxBytes,
    drainBytes: drainOversizedBytes,
    drainMs: drainOversizedMs,
  });
  if (read.kind === 'too_large') {
    return refuse(
      new LoopError(
        'payload_too_large',
        `the request body is over the ${maxBytes}-byte limit: send a smaller body`,
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
    query: new URL(request.url ?? '/', 'http://control').searchParams,
    headers: request.headers,
    body,
    ...(sessionToken === undefined ? {} : { sessionToken }),
    requestId,
    signal,
    logger,
  });
}

/** Sends the headers at once, lets the route write, and ends the response when it is done. */
async function sendStream(
  stream: StreamBody,
  response: ServerResponse,
  context: {
    readonly requestId: string;
    readonly logger: Logger;
    readonly gone: AbortSignal;
    readonly closing?: AbortSignal;
  },
): Promise<void> {
  const { requestId, logger, gone, closing } = context;
  if (response.destroyed) return;
  // A stream holds its connection to the end; closing it then (rather than keeping it alive for
  // another request) lets a stopping server finish at once.
  response.writeHead(200, { 'x-request-id': requestId, ...stream.headers, connection: 'close' });
  response.flushHeaders();
  // One signal for both ends, built by hand: the closing signal lives as long as the server, and
  // every listener added to it here is removed again when this stream ends.
  const ended = new AbortController();
  const end = (): void => ended.abort();
  if (gone.aborted || closing?.aborted === true) end();
  gone.addEventListener('abort', end, { once: true });
  closing?.addEventListener('abort', end, { once: true });
  const sink: StreamSink = {
    write: (text) => !response.destroyed && response.write(text),
    buffered: () => response.writableLength,
    drained: () =>
      new Promise((resolve) => {
        if (response.destroyed || !response.writableNeedDrain) {
          resolve();
          return;
        }
        const done = (): void => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      }),
  };
  try {
    await stream.run(sink, ended.signal);
  } catch (error) {
    // The headers are gone already: all that is left is to end the stream and say why in the log.
    logger.error({ err: error }, 'api stream failed');
  } finally {
    gone.removeEventListener('abort', end);
    closing?.removeEventListener('abort', end);
    if (!response.destroyed) response.end();
  }
}

function refuse(error: LoopError, extra: Pick<Reply, 'headers' | 'close'> = {}): Reply {
  return { status: error.status, body: { error: error.message, code: error.code }, ...extra };
}

function stripQuery(target: string): string {
  return target.replace(/[?#].*$/s, '');
}
