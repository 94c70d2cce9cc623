import { LoopError } from '../errors.js';
import { isJsonContentType } from './is-json-content-type.js';

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
