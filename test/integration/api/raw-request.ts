import { request, type Agent, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  readonly socketPath?: string;
  readonly host?: string;
  readonly port?: number;
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  readonly agent?: Agent;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The parsed body, or undefined when it was empty or not JSON. */
  readonly json: unknown;
}

/** A plain node:http request that sends exactly what it is told: for the cases the client avoids. */
export function rawRequest(options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request({
      ...(options.socketPath === undefined
        ? { host: options.host, port: options.port }
        : { socketPath: options.socketPath }),
      method: options.method,
      path: options.path,
      headers: options.headers,
      agent: options.agent ?? false,
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text,
          json: parseOrUndefined(text),
        });
      });
    });
    outgoing.end(options.body);
  });
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
