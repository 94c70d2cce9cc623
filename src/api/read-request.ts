import { createHash, timingSafeEqual } from 'node:crypto';
import { LoopError } from '../errors.js';

/*
 * Reading a control-plane request before its route sees it: the bearer token of the TCP listener,
 * and the JSON body (the bytes themselves are read by src/http/read-body.ts).
 */

/**
 * True when an `Authorization` header carries exactly `Bearer <token>`. Both sides are hashed
 * first so the comparison takes the same time whatever the length or content of the guess.
 */
export function checkBearer(authorization: string | undefined, token: string): boolean {
  if (token === '' || authorization === undefined) return false;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (match?.[1] === undefined) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** `application/json`, any `+json` type, with or without parameters such as `charset`. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const mediaType = (header.split(';')[0] ?? '').trim().toLowerCase();
  return (
    mediaType === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType)
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Turns request body bytes into a JSON value; no bytes means no body (`undefined`). Throws a
 * `bad_request` LoopError for a body that is not declared JSON, not UTF-8 or not valid JSON.
 */
export function parseJsonBody(bytes: Uint8Array, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  if (!isJsonContentType(contentType)) {
    throw new LoopError(
      'bad_request',
      `the request body must be JSON: send it with \`Content-Type: application/json\`` +
        (contentType === undefined ? '' : ` (got \`${contentType.slice(0, 100)}\`)`),
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new LoopError('bad_request', 'the request body is not UTF-8: send JSON encoded as UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new LoopError(
      'bad_request',
      `the request body is not valid JSON (${error.message}): send one JSON value`,
    );
  }
}
