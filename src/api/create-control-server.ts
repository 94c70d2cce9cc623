import { randomUUID } from 'node:crypto';
import { chmodSync, statSync } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LoopError, errnoCode } from '../errors.js';
import type { Logger } from '../log/create-logger.js';
import { createRequestListener } from './create-request-listener.js';
import type { Route } from './route.js';
import { claimSocketPath, closeServer, listenServer } from './server-socket.js';

export interface ControlServerOptions {
  readonly routes: readonly Route[];
  readonly logger: Logger;
  readonly socketPath: string;
  /** The optional TCP listener (`api.listen`); `token` is THE_LOOP_API_TOKEN. */
  readonly tcp?: { readonly host: string; readonly port: number; readonly token: string };
  /** Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** How long stop() lets requests in flight finish before cutting them. Default 5 s. */
  readonly stopGraceMs?: number;
  readonly newRequestId?: () => string;
  readonly now?: () => number;
}

export interface ControlServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Where the TCP listener is bound (the real port when 0 was asked), once started. */
  tcpAddress(): { host: string; port: number } | undefined;
}

/**
 * Anyone who can reach `api.listen` may connect before the token is checked, so the TCP listener
 * bounds what such a client can hold (docs/security.md): its headers within 10 s (Node allows 60),
 * the whole request within 30 s, checked every second (Node checks every 30), and at most
 * `tcpMaxConnections` connections at once — one past that is closed as it arrives. The CLI talks
 * over the unix socket, which has none of these limits.
 */
const tcpLimits = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const;
export const tcpMaxConnections = 64;

/** The control plane (docs/design.md §3.5): HTTP/1.1 JSON on a 0600 unix socket, optionally on TCP. */
export function createControlServer(options: ControlServerOptions): ControlServer {
  const closing = new AbortController();
  const shared = {
    routes: options.routes,
    logger: options.logger,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    newRequestId: options.newRequestId ?? randomUUID,
    now: options.now ?? (() => performance.now()),
    closing: closing.signal,
  };
  const graceMs = options.stopGraceMs ?? 5_000;
  const logError = (error: Error): void =>
    options.logger.error({ err: error }, 'api listener error');
  let state: 'new' | 'starting' | 'running' | 'stopped' = 'new';
  let unixServer: Server | undefined;
  let tcpServer: Server | undefined;
  let socketInode: number | undefined;

  async function stopListeners(): Promise<void> {
    closing.abort();
    const servers = [unixServer, tcpServer].filter((server) => server !== undefined);
    await Promise.all(servers.map((server) => closeServer(server, graceMs)));
    if (socketInode !== undefined) await removeOwnSocket(options.socketPath, socketInode);
  }

  async function start(): Promise<void> {
    if (state !== 'new') throw new LoopError('internal', 'a control server can be started once');
    state = 'starting';
    const tcp = options.tcp;
    if (tcp !== undefined && tcp.token === '') {
      throw new LoopError(
        'config_invalid',
        `api.listen asks for a TCP listener on ${tcp.host}:${tcp.port} but THE_LOOP_API_TOKEN ` +
          'is empty: set THE_LOOP_API_TOKEN to a long random secret, or remove api.listen',
      );
    }
    try {
      await claimSocketPath(options.socketPath);
      unixServer = createServer(createRequestListener(shared));
      unixServer.on('error', logError);
      let chmodError: unknown;
      // Runs inside the 'listening' emit, before the event loop accepts the first connection.
      unixServer.once('listening', () => {
        try {
          chmodSync(options.socketPath, 0o600);
          socketInode = statSync(options.socketPath).ino;
        } catch (error) {
          chmodError = error;
        }
      });
      await listenServer(unixServer, { path: options.socketPath }).catch((error: unknown) => {
        throw listenError(error, options.socketPath, 'state.root');
      });
      if (chmodError !== undefined) throw chmodError;
      if (tcp !== undefined) {
        tcpServer = createServer(
          tcpLimits,
          createRequestListener({ ...shared, bearerToken: tcp.token }),
        );
        tcpServer.maxConnections = tcpMaxConnections;
        tcpServer.on('error', logError);
        await listenServer(tcpServer, { host: tcp.host, port: tcp.port }).catch(
          (error: unknown) => {
            throw listenError(error, `${tcp.host}:${tcp.port}`, 'api.listen');
          },
        );
      }
    } catch (error) {
      await stopListeners();
      state = 'stopped';
      throw error;
    }
    state = 'running';
  }

  async function stop(): Promise<void> {
    if (state === 'new' || state === 'stopped') {
      state = 'stopped';
      return;
    }
    state = 'stopped';
    await stopListeners();
  }

  function tcpAddress(): { host: string; port: number } | undefined {
    const address = state === 'running' ? tcpServer?.address() : undefined;
    if (address === undefined || address === null || typeof address === 'string') return undefined;
    return { host: address.address, port: address.port };
  }

  return { start, stop, tcpAddress };
}

function listenError(error: unknown, where: string, key: string): unknown {
  const code = errnoCode(error);
  if (code === 'EADDRINUSE') {
    return new LoopError(
      'conflict',
      `another \`the-loop serve\` (or another program) is already listening on ${where}: stop it, ` +
        `or change ${key}`,
    );
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    return new LoopError('config_invalid', `cannot listen on ${where} (${code}): change ${key}`);
  }
  return error;
}

/** Removes the socket file only if it is still the one this server created. */
async function removeOwnSocket(socketPath: string, inode: number): Promise<void> {
  try {
    const stats = await lstat(socketPath);
    if (stats.ino === inode) await unlink(socketPath);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
