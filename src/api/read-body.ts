import type { IncomingMessage } from 'node:http';

export type BodyRead =
  { readonly kind: 'complete'; readonly bytes: Buffer } | { readonly kind: 'too_large' };

/**
 * Reads a request body up to `maxBytes`. Past the limit it stops listening and answers
 * `too_large` without keeping the excess, so a huge or endless body costs at most `maxBytes`.
 * A declared `Content-Length` over the limit is refused before a single byte is read.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.resolve({ kind: 'too_large' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) {
        finish();
        request.pause();
        chunks.length = 0;
        resolve({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      finish();
      resolve({ kind: 'complete', bytes: Buffer.concat(chunks, total) });
    };
    const onError = (error: Error): void => {
      finish();
      reject(error);
    };
    const onClose = (): void => {
      finish();
      reject(new Error('the client closed the connection before sending the whole body'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}
