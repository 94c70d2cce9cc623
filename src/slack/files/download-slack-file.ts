import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { LoopError } from '../../errors.js';

export type Fetch = typeof fetch;

/**
 * Downloads one file with the bot token into `destination` (0600), through a temporary file in
 * the same folder so a cut-off download never leaves a partial file under the real name. Never
 * follows a redirect: Slack redirects a request it does not accept to its sign-in page.
 * Resolves to the number of bytes written; throws a LoopError whose message says why not.
 */
export async function downloadSlackFile(options: {
  readonly url: string;
  readonly botToken: string;
  readonly destination: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly fetch?: Fetch;
}): Promise<number> {
  const run = options.fetch ?? fetch;
  const response = await run(options.url, {
    headers: { Authorization: `Bearer ${options.botToken}` },
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs),
  }).catch((error: unknown) => {
    throw new LoopError('file_download_failed', `Slack could not be reached (${reason(error)})`);
  });
  if (response.status >= 300 && response.status < 400) {
    throw refused('Slack sent its sign-in page instead of the file');
  }
  if (response.status === 401 || response.status === 403) {
    throw refused(`Slack refused the download (HTTP ${response.status})`);
  }
  if (response.status !== 200 || response.body === null) {
    throw new LoopError('file_download_failed', `Slack answered HTTP ${response.status}`);
  }
  const announced = Number(response.headers.get('content-length') ?? Number.NaN);
  if (announced > options.maxBytes) throw tooLarge(announced, options.maxBytes);

  const partial = `${options.destination}.${randomBytes(4).toString('hex')}.part`;
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(bytes > options.maxBytes ? tooLarge(bytes, options.maxBytes) : null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      count,
      createWriteStream(partial, { mode: 0o600, flags: 'wx' }),
    );
    if (Number.isFinite(announced) && bytes !== announced) {
      throw cutOff(bytes);
    }
    await rename(partial, options.destination);
    return bytes;
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    if (error instanceof LoopError) throw error;
    throw cutOff(bytes);
  }
}

function refused(what: string): LoopError {
  return new LoopError(
    'file_download_failed',
    `${what}; the bot token needs the files:read scope (reinstall the app from \`the-loop manifest\`)`,
  );
}

function tooLarge(bytes: number, maxBytes: number): LoopError {
  return new LoopError(
    'file_too_large',
    `too large (${bytes} bytes or more; the limit is slack.files.maxBytes = ${maxBytes})`,
  );
}

function cutOff(bytes: number): LoopError {
  return new LoopError(
    'file_download_failed',
    `the download was cut off after ${bytes} bytes; send the file again`,
  );
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}
