import { request } from 'node:http';

export interface StreamedAnswer {
  readonly status: number;
  readonly text: string;
  /** Bytes of body written before the answer came. */
  readonly sent: number;
}

/**
 * Sends a body that would be `totalBytes` long, a chunk at a time, and stops writing as soon as
 * the server answers: how an oversized upload looks to a server that refuses it early. With
 * `declareLength` the length is announced in Content-Length and no body byte is sent before the
 * answer (a server may refuse on the header alone); otherwise the body is chunked.
 */
export function streamRequest(options: {
  readonly socketPath?: string;
  readonly port?: number;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly totalBytes: number;
  readonly declareLength: boolean;
}): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    const outgoing = request({
      ...(options.socketPath === undefined
        ? { host: '127.0.0.1', port: options.port }
        : { socketPath: options.socketPath }),
      method: 'POST',
      path: options.path,
      agent: false,
      headers: {
        ...options.headers,
        ...(options.declareLength ? { 'content-length': String(options.totalBytes) } : {}),
      },
    });
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    outgoing.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', reject);
      response.on('end', () => {
        outgoing.destroy();
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(parts).toString('utf8'),
          sent,
        });
      });
    });
    if (options.declareLength) {
      outgoing.flushHeaders();
      return;
    }
    const pump = (): void => {
      while (!answered && sent < options.totalBytes) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!answered) outgoing.end();
    };
    pump();
  });
}
