import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from '../log/create-logger.js';

export interface HttpListener {
  start(): Promise<{ host: string; port: number }>;
  stop(): Promise<void>;
}

/**
 * The public listener (`http.host:port`) that Slack's HTTP mode and the GitHub webhook share. It
 * only dispatches by path; each surface checks its own signatures.
 */
export function createHttpListener(options: {
  readonly host: string;
  readonly port: number;
  readonly routes: Readonly<Record<string, RequestListener>>;
  readonly logger: Logger;
}): HttpListener {
  let server: Server | undefined;
  return {
    async start() {
      server = createServer((request, response) => {
        const path = (request.url ?? '/').split('?')[0] ?? '/';
        const route = options.routes[path];
        if (!route) {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"error":"not found"}');
          return;
        }
        route(request, response);
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(options.port, options.host, () => resolve());
      });
      const address = listening.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      options.logger.info(
        { event: 'http.listening', host: options.host, port },
        'http listener started',
      );
      return { host: options.host, port };
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}

/** The public listener for the routes the surfaces serve, or none when no surface serves one. */
export function httpListenerFor(
  options: Parameters<typeof createHttpListener>[0],
): HttpListener | undefined {
  return Object.keys(options.routes).length ? createHttpListener(options) : undefined;
}
