import { lstat, unlink } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { LoopError, errnoCode } from '../errors.js';

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
