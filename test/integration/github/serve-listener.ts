import { createServer, request, type RequestListener } from 'node:http';

export interface ServedListener {
  readonly url: string;
  close(): Promise<void>;
}

/** A request listener on a real node:http server on 127.0.0.1 and a free port. */
export async function serveListener(listener: RequestListener): Promise<ServedListener> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/github/webhook`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Sends a request with node:http, so the test decides exactly how the body travels: `chunks` are
 * written one by one, with a Content-Length header only when `contentLength` is given (otherwise
 * chunked). Rejects when the connection fails before a whole answer arrives.
 */
export function rawRequest(
  url: string,
  options: {
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly chunks?: readonly (string | Buffer)[];
    readonly contentLength?: number;
  },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.contentLength !== undefined)
      headers['content-length'] = String(options.contentLength);
    const outgoing = request(
      url,
      { method: options.method ?? 'POST', headers, timeout: 5_000 },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(parts).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 5 s')));
    const chunks = options.chunks ?? [];
    const writeFrom = (index: number): void => {
      if (outgoing.destroyed) return;
      if (index >= chunks.length) {
        outgoing.end();
        return;
      }
      const chunk = chunks[index] ?? '';
      if (outgoing.write(chunk)) writeFrom(index + 1);
      else outgoing.once('drain', () => writeFrom(index + 1));
    };
    writeFrom(0);
  });
}
