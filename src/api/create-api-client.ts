import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LoopError, errnoCode, isErrorCode } from '../errors.js';
import type { HttpMethod } from './route.js';

/**
 * Where serve listens: its unix control socket, or its TCP listener (`api.listen`) with the
 * API token every request there must carry (docs/design.md §3.5).
 */
export type ApiEndpoint =
  { readonly socketPath: string } | { readonly url: string; readonly token: string };

export type ApiClientOptions = ApiEndpoint & {
  /** How long one request may take, connection to last byte. Default 60 s (a start can be slow). */
  readonly timeoutMs?: number;
};

export interface ApiResult<T> {
  readonly status: number;
  readonly body: T;
}

export interface ApiClient {
  /** Any HTTP status is a result; only "could not talk to serve" is thrown. See `unwrap`. */
  request<T = unknown>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ): Promise<ApiResult<T>>;
  /**
   * A GET whose answer is read as it arrives (the event stream): resolves with the response once
   * its headers are in, with no time limit on the body. Destroy it (or abort `signal`) to stop.
   */
  open(
    path: string,
    headers?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<IncomingMessage>;
  /** Where this client talks to, for messages: the socket path or the URL. */
  readonly where: string;
}

/**
 * The one client of the control plane, under the SDK (`connect`), the CLI and the hooks: one
 * short-lived connection per request, over the unix socket or TCP with a bearer token.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const where = 'socketPath' in options ? options.socketPath : options.url;

  function outgoing(
    method: HttpMethod,
    path: string,
    headers: Readonly<Record<string, string>>,
  ): ReturnType<typeof httpRequest> {
    // No keep-alive pool: a CLI process must be free to exit as soon as it has its answer.
    const common: RequestOptions = { method, path, agent: false, headers: { ...headers } };
    if ('socketPath' in options) return httpRequest({ ...common, socketPath: options.socketPath });
    const url = new URL(options.url);
    const base = url.pathname.replace(/\/+$/, '');
    const tcp: RequestOptions = {
      ...common,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path: `${base}${path}`,
      headers: { ...common.headers, authorization: `Bearer ${options.token}` },
    };
    return url.protocol === 'https:' ? httpsRequest(tcp) : httpRequest(tcp);
  }

  function request<T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<ApiResult<T>> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const sent = outgoing(method, path, {
        accept: 'application/json',
        ...headers,
        ...(payload === undefined
          ? {}
          : {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(payload)),
            }),
      });
      sent.setTimeout(timeoutMs);
      sent.once('timeout', () => {
        sent.destroy(
          new LoopError(
            'internal',
            `\`the-loop serve\` at ${where} did not answer within ${timeoutMs} ms: ` +
              'check its log, or restart it',
          ),
        );
      });
      sent.once('error', (error) => reject(connectionError(error, where)));
      sent.once('response', (response) => {
        readResponse<T>(response).then(resolve, (error: unknown) =>
          reject(connectionError(error, where)),
        );
      });
      sent.end(payload);
    });
  }

  function open(
    path: string,
    headers: Readonly<Record<string, string>> = {},
    signal?: AbortSignal,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const sent = outgoing('GET', path, headers);
      const abort = (): void => {
        sent.destroy(new LoopError('internal', 'the stream was closed by its reader'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      // Only the wait for the headers is timed: a stream may then stay quiet for long.
      sent.setTimeout(timeoutMs);
      sent.once('timeout', () => {
        sent.destroy(
          new LoopError('internal', `\`the-loop serve\` at ${where} did not answer in time`),
        );
      });
      sent.once('error', (error) => reject(connectionError(error, where)));
      sent.once('response', (response) => {
        sent.setTimeout(0);
        response.once('close', () => signal?.removeEventListener('abort', abort));
        resolve(response);
      });
      sent.end();
    });
  }

  return { request, open, where };
}

/** The whole body of a response, parsed as JSON when it is JSON. */
export async function readResponse<T>(response: IncomingMessage): Promise<ApiResult<T>> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const status = response.statusCode ?? 0;
  if (text === '') return { status, body: undefined as T };
  try {
    return { status, body: JSON.parse(text) as T };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // Not from the-loop (or a proxy's error page): keep the text so unwrap can show it.
    return { status, body: text as T };
  }
}

/** A failure to talk to serve at all, as the LoopError a person can act on. */
export function connectionError(error: unknown, where: string): LoopError {
  if (error instanceof LoopError) return error;
  const code = errnoCode(error);
  if (code === 'ENOENT' || code === 'ECONNREFUSED') {
    return new LoopError(
      'serve_not_running',
      `\`the-loop serve\` is not running at ${where}: start it with \`the-loop serve\` ` +
        '(or `npm start`)',
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new LoopError(
      'forbidden',
      `permission denied on the control socket ${where}: run this as the user that ` +
        'started `the-loop serve`',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LoopError(
    'internal',
    `lost the connection to \`the-loop serve\` at ${where} (${message}): check its log`,
  );
}

/**
 * The body of a 2xx answer; anything else becomes the LoopError the server described, so the CLI
 * branches on the same codes the server threw. A code this client does not know (a newer serve)
 * becomes `internal` but keeps the server's message, which is what the person needs to read.
 */
export function unwrap<T>(response: ApiResult<T>): T {
  if (response.status >= 200 && response.status < 300) return response.body;
  const body: unknown = response.body;
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = isErrorCode(fields.code) ? fields.code : 'internal';
  const message =
    typeof fields.error === 'string' && fields.error !== ''
      ? fields.error
      : `\`the-loop serve\` answered HTTP ${response.status}` +
        (typeof body === 'string' && body !== '' ? `: ${body.slice(0, 200)}` : '');
  throw new LoopError(code, message, { status: response.status });
}
