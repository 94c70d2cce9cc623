import type { IncomingMessage } from 'node:http';

export type BodyRead =
  { readonly kind: 'complete'; readonly bytes: Buffer } | { readonly kind: 'too_large' };

export interface BodyLimits {
  readonly maxBytes: number;
  /**
   * Past `maxBytes`, how much more to read and drop before answering. A client still sending when
   * the connection closes can get a reset instead of the 413; reading the rest of a moderately
   * oversized body first lets it see the answer, while an endless one still costs little.
   */
  readonly drainBytes: number;
  /** And for how long, so a slow sender cannot hold the answer back. */
  readonly drainMs: number;
}

/**
 * The one request body reader, for the control plane and the GitHub webhook ingress alike.
 * Reads a request body up to `maxBytes`, keeping nothing past the limit, so a huge or endless body
 * costs at most `maxBytes` of memory. A declared `Content-Length` over the limit is refused before
 * a single byte is read (the client has not sent it yet, so nothing needs draining).
 */
export function readBody(request: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    return Promise.resolve({ kind: 'too_large' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(drainTimer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const tooLarge = (): void => {
      finish();
      request.pause();
      resolve({ kind: 'too_large' });
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total <= limits.maxBytes) {
        chunks.push(chunk);
        return;
      }
      if (drainTimer === undefined) {
        chunks.length = 0;
        drainTimer = setTimeout(tooLarge, limits.drainMs);
      }
      if (total > limits.maxBytes + limits.drainBytes) tooLarge();
    };
    const onEnd = (): void => {
      finish();
      resolve(
        total > limits.maxBytes
          ? { kind: 'too_large' }
          : { kind: 'complete', bytes: Buffer.concat(chunks, total) },
      );
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
