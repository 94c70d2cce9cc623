import { request as httpRequest, type IncomingMessage } from 'node:http';
import { LoopError, errnoCode } from '../errors.js';
import type { HttpMethod } from './route.js';

export interface ApiClientOptions {
  readonly socketPath: string;
  /** How long one request may take, connection to last byte. Default 60 s (a start can be slow). */
  readonly timeoutMs?: number;
}

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
}

/** The CLI's side of the control plane: one short-lived connection per request. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const { socketPath } = options;

  function request<T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<ApiResult<T>> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({
        socketPath,
        method,
        path,
        // No keep-alive pool: a CLI process must be free to exit as soon as it has its answer.
        agent: false,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
        },
        timeout: timeoutMs,
      });
      outgoing.once('timeout', () => {
        outgoing.destroy(
          new LoopError(
            'internal',
            `\`the-loop serve\` at ${socketPath} did not answer within ${timeoutMs} ms: ` +
              'check its log, or restart it',
          ),
        );
      });
      outgoing.once('error', (error) => reject(connectionError(error, socketPath)));
      outgoing.once('response', (response) => {
        readResponse<T>(response).then(resolve, (error: unknown) =>
          reject(connectionError(error, socketPath)),
        );
      });
      outgoing.end(payload);
    });
  }

  return { request };
}

async function readResponse<T>(response: IncomingMessage): Promise<ApiResult<T>> {
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

function connectionError(error: unknown, socketPath: string): unknown {
  if (error instanceof LoopError) return error;
  const code = errnoCode(error);
  if (code === 'ENOENT' || code === 'ECONNREFUSED') {
    return new LoopError(
      'serve_not_running',
      `\`the-loop serve\` is not running at ${socketPath}: start it with \`the-loop serve\` ` +
        '(or `npm start`)',
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new LoopError(
      'forbidden',
      `permission denied on the control socket ${socketPath}: run this as the user that ` +
        'started `the-loop serve`',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LoopError(
    'internal',
    `lost the connection to \`the-loop serve\` at ${socketPath} (${message}): check its log`,
  );
}
