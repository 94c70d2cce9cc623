import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequestListener } from '../api/create-request-listener.js';
import type { Route } from '../api/route.js';
import { closeServer, listenServer } from '../api/server-socket.js';
import { errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { dashboardCss } from './dashboard-css.js';
import type { DashboardListen } from '../config/dashboard-listen.js';
import { allowedHostSet, guardRequest, isApiPath } from './guard-request.js';
import { renderAppPage, renderLoginPage } from './render-pages.js';
import { readSessionCookie, securityHeaders, sessionCookie } from './security-headers.js';
import { sameSecret, type SignInStore } from './sign-in-store.js';

export interface DashboardServerOptions {
  readonly listen: DashboardListen;
  /** `dashboard.allowedHosts`. */
  readonly allowedHosts: readonly string[];
  /** THE_LOOP_API_TOKEN; "" lets nobody sign in with a token. */
  readonly apiToken: string;
  readonly signIn: SignInStore;
  /** The whole `/api/v1` as the dashboard serves it, and its own `/ui/…` routes. */
  readonly routes: readonly Route[];
  /** The folder of the compiled browser modules. */
  readonly assetsDir: string;
  readonly onSignedIn: (via: 'code' | 'token') => void;
  readonly logger: Logger;
}

export interface DashboardServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Where it listens (the real port when 0 was asked), once started. */
  address(): DashboardListen | undefined;
}

const pagePattern = /^\/(?:|sessions\/[^/]+|work-items\/[^/]+\/[^/]+\/[0-9]+)$/;
const loginMessages: Readonly<Record<string, string>> = {
  code: 'That sign-in link was used already or has expired (links work once, for 2 minutes): run `the-loop dashboard` for a new one.',
  token: 'That is not the API token this `the-loop serve` was started with (THE_LOOP_API_TOKEN).',
  'no-token':
    'This `the-loop serve` has no THE_LOOP_API_TOKEN, so signing in with a token is off: run `the-loop dashboard` for a sign-in link.',
};

/**
 * The dashboard's HTTP listener (docs/design.md §19, docs/dashboard.md): every request passes
 * the guard (Host, Origin, cookie or bearer token) before a page, an asset or the API sees it,
 * and every answer carries the security headers.
 */
export function createDashboardServer(options: DashboardServerOptions): DashboardServer {
  let server: Server | undefined;
  let allowedHosts = allowedHostSet(options.listen, options.allowedHosts);
  // Ends every open event stream when serve stops, so closing does not wait on them.
  const closing = new AbortController();
  const api = createRequestListener({
    closing: closing.signal,
    routes: options.routes,
    logger: options.logger,
    maxBodyBytes: 1024 * 1024,
    newRequestId: randomUUID,
    now: () => performance.now(),
  });
  const assets = loadAssets(options.assetsDir);

  function handle(request: IncomingMessage, response: ServerResponse): void {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    const url = new URL(request.url ?? '/', 'http://dashboard.invalid');
    const authorization = request.headers.authorization;
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    const cookie = readSessionCookie(request.headers.cookie);
    const verdict = guardRequest({
      method: request.method ?? '',
      path: url.pathname,
      host: request.headers.host,
      origin: request.headers.origin,
      cookie:
        cookie === undefined ? 'none' : options.signIn.hasSession(cookie) ? 'valid' : 'invalid',
      bearer:
        authorization === undefined
          ? 'none'
          : bearer !== undefined && sameSecret(bearer, options.apiToken)
            ? 'valid'
            : 'invalid',
      allowedHosts,
    });
    switch (verdict.kind) {
      case 'misdirected':
        return plain(
          response,
          421,
          'this dashboard answers only to its own address (docs/dashboard.md: dashboard.allowedHosts)',
        );
      case 'cross-origin':
        return plain(
          response,
          403,
          'a change needs a same-origin request: use the dashboard itself',
        );
      case 'unauthorized':
        response.setHeader('www-authenticate', 'Bearer');
        return json(response, 401, {
          error:
            'sign in first: run `the-loop dashboard`, or send `Authorization: Bearer <THE_LOOP_API_TOKEN>`',
          code: 'unauthorized',
        });
      case 'login':
        return redirect(response, '/login');
      case 'pass':
        break;
    }
    if (isApiPath(url.pathname)) {
      api(request, response);
      return;
    }
    void answerPage(request, response, url).catch((error: unknown) => {
      options.logger.error({ err: error }, 'dashboard page failed');
      if (!response.headersSent) plain(response, 500, 'the dashboard failed: see the serve log');
      else response.destroy();
    });
  }

  async function answerPage(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
  ): Promise<void> {
    const method = request.method ?? '';
    const pathname = url.pathname;
    if (pathname === '/login' && method === 'POST') return signInWithToken(request, response);
    if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('allow', 'GET');
      return plain(response, 405, `${method} is not allowed here`);
    }
    if (pathname === '/login') {
      const code = url.searchParams.get('code');
      if (code !== null) {
        if (!options.signIn.redeemCode(code)) return redirect(response, '/login?error=code');
        return signedIn(response, 'code');
      }
      const error = url.searchParams.get('error') ?? '';
      return html(response, 200, renderLoginPage(loginMessages[error]));
    }
    if (pathname.startsWith('/assets/')) {
      const asset = (await assets).get(pathname.slice('/assets/'.length));
      if (asset === undefined) return plain(response, 404, 'no such asset');
      response.writeHead(200, {
        'content-type': asset.type,
        'content-length': String(asset.body.length),
        'cache-control': 'no-cache',
      });
      response.end(method === 'HEAD' ? undefined : asset.body);
      return;
    }
    if (pagePattern.test(pathname)) return html(response, 200, renderAppPage('Sessions'));
    return plain(response, 404, 'no such page: the sessions are at /');
  }

  async function signInWithToken(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const body = await readSmallBody(request, 8 * 1024);
    const token = new URLSearchParams(body ?? '').get('token') ?? '';
    if (options.apiToken === '') return redirect(response, '/login?error=no-token', 303);
    if (!sameSecret(token, options.apiToken)) return redirect(response, '/login?error=token', 303);
    return signedIn(response, 'token');
  }

  function signedIn(response: ServerResponse, via: 'code' | 'token'): void {
    response.setHeader('set-cookie', sessionCookie(options.signIn.openSession()));
    options.onSignedIn(via);
    redirect(response, '/', via === 'token' ? 303 : 302);
  }

  return {
    async start() {
      const created = createServer({ headersTimeout: 10_000, requestTimeout: 0 }, handle);
      created.maxConnections = 128;
      created.on('error', (error) =>
        options.logger.error({ err: error }, 'dashboard listener error'),
      );
      await listenServer(created, { host: options.listen.host, port: options.listen.port });
      server = created;
      const bound = created.address();
      // A port of 0 (tests) becomes the real one: the Host header names that.
      if (bound !== null && typeof bound === 'object' && options.listen.port === 0) {
        allowedHosts = allowedHostSet(
          { ...options.listen, port: bound.port },
          options.allowedHosts,
        );
      }
    },
    async stop() {
      if (server === undefined) return;
      const stopping = server;
      server = undefined;
      closing.abort();
      await closeServer(stopping, 2_000);
    },
    address() {
      const bound = server?.address();
      if (bound === null || bound === undefined || typeof bound === 'string') return undefined;
      return { host: options.listen.host, port: bound.port };
    },
  };
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(`${text}\n`);
}

function json(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(payload);
}

function html(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(text);
}

function redirect(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location, 'cache-control': 'no-store' });
  response.end();
}

async function readSmallBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/** The compiled browser modules, read once; plus the stylesheet. Nothing else is served. */
async function loadAssets(dir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  assets.set('dashboard.css', { type: 'text/css; charset=utf-8', body: Buffer.from(dashboardCss) });
  const names = await readdir(dir).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return [] as string[];
    throw error;
  });
  for (const name of names) {
    if (!/^[a-z0-9-]+\.js$/.test(name)) continue;
    const body = await readFile(path.join(dir, name));
    assets.set(name, { type: 'text/javascript; charset=utf-8', body });
  }
  return assets;
}
