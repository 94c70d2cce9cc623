import type { Server } from 'node:http';
import type { ListenOptions } from 'node:net';

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
