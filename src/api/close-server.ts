import type { Server } from 'node:http';

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
