import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (bound, read, released), for a listener a
 * test is about to start.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port was assigned');
  return address.port;
}
