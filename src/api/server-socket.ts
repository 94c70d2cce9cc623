import type { Server } from 'node:http';
import { createConnection, type ListenOptions } from 'node:net';
import { lstat, unlink } from 'node:fs/promises';
import { LoopError, errnoCode } from '../errors.js';

/*
 * The control server's socket, from claiming its path to closing it: the steps
 * create-control-server.ts takes around node's listen and close.
 */

/** `server.listen` as a promise that rejects with the listen error (EADDRINUSE, EACCES…). */
export function listenServer(server: Server, options: ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options);
  });
}

/**
 * Stops accepting, ends idle keep-alive connections at once, lets requests in flight finish for
 * up to `graceMs`, then cuts whatever is left so a stuck client cannot hold shutdown forever.
 */
export function closeServer(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close((error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** Linux keeps 108 bytes for a socket path, including the terminating NUL. */
const maxSocketPathBytes = 107;
const probeTimeoutMs = 1_000;

/**
 * Makes `socketPath` free for a new control server. A socket nobody answers on was left by a
 * crashed `serve` and is removed; a socket something answers on belongs to a live `serve` and is
 * refused, never taken over; a file that is not a socket, or a socket of another user, is never
 * deleted.
 */
export async function claimSocketPath(socketPath: string): Promise<void> {
  if (Buffer.byteLength(socketPath) > maxSocketPathBytes) {
    throw new LoopError(
      'config_invalid',
      `the control socket path ${socketPath} is longer than the ${maxSocketPathBytes} bytes a ` +
        `unix socket allows: choose a shorter state.root`,
    );
  }
  const stats = await lstat(socketPath).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return;
  if (!stats.isSocket()) {
    throw new LoopError(
      'conflict',
      `${socketPath} exists and is not a socket: move it away so \`the-loop serve\` can listen there`,
    );
  }
  // Another user's socket is never ours to remove, stale or not (docs/security.md).
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new LoopError(
      'forbidden',
      `${socketPath} belongs to another user (uid ${stats.uid}); the-loop never removes another ` +
        "user's socket: give this `the-loop serve` another state.root, or ask that user to remove it",
    );
  }
  const probe = await probeSocket(socketPath);
  if (probe === 'stale') {
    await unlink(socketPath).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
    return;
  }
  if (probe === 'forbidden') {
    throw new LoopError(
      'forbidden',
      `cannot reach the control socket ${socketPath} (permission denied): another user's ` +
        '`the-loop serve` may own it; give this one another state.root',
    );
  }
  throw new LoopError(
    'conflict',
    `another \`the-loop serve\` is running on ${socketPath}: stop it first, or give this one ` +
      'another state.root',
  );
}

type Probe = 'live' | 'stale' | 'forbidden';

function probeSocket(socketPath: string): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = createConnection({ path: socketPath });
    const settle = (probe: Probe): void => {
      socket.destroy();
      resolve(probe);
    };
    socket.once('connect', () => settle('live'));
    // A listener too busy to accept within the timeout is still alive: never steal its socket.
    socket.setTimeout(probeTimeoutMs, () => settle('live'));
    socket.once('error', (error) => {
      const code = errnoCode(error);
      if (code === 'ECONNREFUSED' || code === 'ENOENT') settle('stale');
      else if (code === 'EACCES' || code === 'EPERM') settle('forbidden');
      else settle('live');
    });
  });
}
