import type { Readable } from 'node:stream';

export interface StreamText {
  readonly text: string;
  /** `end`: the whole stream was read. Otherwise `text` is what arrived before reading stopped. */
  readonly ending: 'end' | 'too-large' | 'timeout' | 'error';
}

/**
 * Reads a stream as UTF-8, up to `maxBytes` and, when given, for at most `timeoutMs`. When it stops
 * early it destroys the stream, so a stdin that never closes cannot keep the process alive.
 */
export function readStreamText(
  stream: Readable,
  options: { readonly maxBytes: number; readonly timeoutMs?: number },
): Promise<StreamText> {
  if (stream.readableEnded) return Promise.resolve({ text: '', ending: 'end' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => finish('timeout'), options.timeoutMs);

    function finish(ending: StreamText['ending']): void {
      if (timer !== undefined) clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (ending !== 'end') {
        // A destroyed stream may still report an error; nobody is listening for it any more.
        stream.on('error', () => undefined);
        stream.destroy();
      }
      resolve({ text: Buffer.concat(chunks).toString('utf8'), ending });
    }
    function onData(chunk: Buffer | string): void {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (size + bytes.length > options.maxBytes) {
        chunks.push(bytes.subarray(0, options.maxBytes - size));
        size = options.maxBytes;
        finish('too-large');
        return;
      }
      chunks.push(bytes);
      size += bytes.length;
    }
    function onEnd(): void {
      finish('end');
    }
    function onError(): void {
      finish('error');
    }

    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}
